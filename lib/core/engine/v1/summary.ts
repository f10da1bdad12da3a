// What an engine v1 cache holds, as list-caches and inspect show it (issue 46 item 4): its
// label, granularity, tokenizer, documents per format and document count. Read from the
// manifest and the document list at the start of each pack's head (12 bytes, then the
// list: never the index or the contents), so it costs one small manifest read and two
// small reads per pack. Nothing here is verified (verify and resolve do that): a cache
// whose manifest or lists do not read gives null, and its listing stays the seed's.

import { join } from 'node:path';
import { parseJson } from '../../../json.js';
import * as fs from '../../fs.js';
import { formatCounts } from '../../sources/extensions.js';
import { isV1Manifest, MANIFEST_FILE, packPath, readManifest, type ManifestTop } from './manifest.js';
import type { Granularity } from './config.js';
import type { TokenizerName } from '../../tokens/count.js';

export interface V1Summary {
  readonly label: string | null;
  readonly granularity: Granularity;
  readonly tokenizer: TokenizerName;
  /** Documents per format, keys in byte order (`{"md":12,"rst":3}`), as the build line prints them. */
  readonly formats: Readonly<Record<string, number>>;
  readonly documentCount: number;
}

const MAGIC = 'CTXPACK3';

/** The paths a pack's head lists (the list only), or null when it does not read as one. */
function packPaths(dir: string, record: ManifestTop['packs'][number]): string[] | null {
  let fd: number;
  try {
    fd = fs.openRead(join(dir, packPath(record.sha256)));
  } catch {
    return null;
  }
  try {
    const start = fs.readAt(fd, 12, 0);
    if (start.toString('latin1', 0, 8) !== MAGIC) return null;
    const n = start.readUInt32LE(8);
    if (12 + n > record.head.bytes) return null;
    const list = parseJson(fs.readAt(fd, n, 12).toString('utf8'));
    if (!Array.isArray(list)) return null;
    const paths: string[] = [];
    for (const e of list as unknown[]) {
      if (!Array.isArray(e) || typeof e[0] !== 'string') return null;
      paths.push(e[0]);
    }
    return paths;
  } catch {
    return null;
  } finally {
    fs.closeFile(fd);
  }
}

/** The manifest of the v1 cache in `dir`, checked for shape, or null (not v1, unreadable, malformed). */
export function readV1Top(dir: string): ManifestTop | null {
  let text: string;
  let value: unknown;
  try {
    text = fs.readText(join(dir, MANIFEST_FILE));
    value = parseJson(text);
  } catch {
    return null;
  }
  if (!isV1Manifest(value)) return null;
  const top = readManifest(text, { value });
  return Array.isArray(top) ? null : top;
}

/** What the v1 cache in `dir` holds, or null (not a v1 cache whose manifest and pack lists read). */
export function summarizeV1(dir: string): V1Summary | null {
  const top = readV1Top(dir);
  if (top === null) return null;
  const paths: string[] = [];
  for (const record of top.packs) {
    const listed = packPaths(dir, record);
    if (listed === null) return null;
    for (const p of listed) paths.push(p);
  }
  return {
    label: top.label,
    granularity: top.config.options.granularity,
    tokenizer: top.config.options.tokenizer,
    formats: formatCounts(paths),
    documentCount: top.documentCount,
  };
}
