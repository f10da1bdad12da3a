// What a v0 cache holds, for the build's target check (../../store/target.ts): the three
// names of the reference's layout (./format.ts) and nothing else — a v0 build writes its
// cache whole in a staging directory and never writes into a published one.

import type { CacheLayout } from '../../store/target.js';
import { isV0ManifestText } from './check.js';
import { DOCUMENTS_DIR, INDEX_FILE, MANIFEST_FILE } from './format.js';

export const V0_LAYOUT: CacheLayout = {
  manifest: MANIFEST_FILE,
  entries: new Map([
    [MANIFEST_FILE, 'file'],
    [INDEX_FILE, 'file'],
    [DOCUMENTS_DIR, 'folder'],
  ]),
  dataFolder: DOCUMENTS_DIR,
  // documents/<first 12 hex of the version>.json (./format.ts documentFile).
  dataFile: /^[0-9a-f]{12}\.json$/,
  isManifest: isV0ManifestText,
};
