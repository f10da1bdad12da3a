// What a v1 cache holds, for the build's target check (../../store/target.ts), in every
// format engine v1 has written: manifest.json and packs/ (formats 3 to 5; format 2 had
// index.bin beside them, and at first documents.pack instead of packs/), and what builds
// write into a published cache: the build state, its replacement while a rebuild that
// changed nothing rewrites it, and the probe that waits for the next file time before it
// (./build.ts writeStateQuietly; ../../fs.ts). A killed rebuild may leave the last two.

import { replacementOf, TICK_PROBE } from '../../fs.js';
import type { CacheLayout } from '../../store/target.js';
import { FORMAT2_FILES, isV1ManifestText, MANIFEST_FILE, PACKS_DIR } from './manifest.js';
import { STATE_FILE } from './state.js';

export const V1_LAYOUT: CacheLayout = {
  manifest: MANIFEST_FILE,
  entries: new Map([
    [MANIFEST_FILE, 'file'],
    [PACKS_DIR, 'folder'],
    [STATE_FILE, 'file'],
    [replacementOf(STATE_FILE), 'file'],
    [TICK_PROBE, 'file'],
    [FORMAT2_FILES.index, 'file'],
    [FORMAT2_FILES.pack, 'file'],
  ]),
  dataFolder: PACKS_DIR,
  // packs/<sha256 of its bytes>.pack, and (since format 18) packs/<sha256 of its bytes>.terms
  // (./manifest.ts packPath, termPath).
  dataFile: /^[0-9a-f]{64}\.(?:pack|terms)$/,
  isManifest: isV1ManifestText,
};
