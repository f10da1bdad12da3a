// `inspect` / `context.inspect_cache` (seed 004): the manifest's cache_version and
// document_count plus total_bytes, never failing on a bad manifest — a missing, unparseable
// or incomplete one gives valid:false and zeros, as the reference server answers. An engine
// v1 cache whose manifest reads also says what it holds, after the seed's four fields
// (issue 46 item 4): engine, label, granularity, tokenizer, formats.

import { join } from 'node:path';
import { parseJson, type Json } from '../../json.js';
import { ContextError, osFailure } from '../../errors.js';
import { openEngine } from '../engine/engine.js';
import * as fs from '../fs.js';
import { requireCacheDir } from '../store/locate.js';
import { MANIFEST_FILE } from '../engine/v0/format.js';
import { isV1Manifest, PACKS_DIR } from '../engine/v1/manifest.js';
import { summarizeV1, type V1Summary } from '../engine/v1/summary.js';
import { v1SummaryJson } from './list.js';

export interface InspectResult {
  readonly cache_version: string;
  readonly document_count: number;
  readonly total_bytes: number;
  readonly valid: boolean;
  /** An engine v1 cache whose manifest reads: what it holds. */
  readonly v1?: V1Summary;
}

/**
 * Sum of the sizes of the regular files directly in `dir`: non-recursive, symlinks not
 * followed (seed 004). The reference CLI sums documents/ instead; DESIGN.md keeps CLI = MCP.
 * An engine v1 cache also counts the files directly in packs/: its documents and index live
 * there, and its total is the whole cache's size.
 */
function totalBytes(dir: string, v1: boolean): number | null {
  try {
    let total = 0;
    for (const d of v1 ? [dir, join(dir, PACKS_DIR)] : [dir]) {
      for (const entry of fs.readDir(d)) {
        if (entry.isFile()) total += fs.lstat(join(d, entry.name)).size;
      }
    }
    return total;
  } catch {
    return null;
  }
}

export function inspectCache(dir: string): InspectResult {
  requireCacheDir(dir);
  let valid = true;
  let cacheVersion = '';
  let documentCount = 0;
  let manifest: unknown;
  try {
    manifest = parseJson(fs.readText(join(dir, MANIFEST_FILE)));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // Absent or not a file: invalid. Unparseable: invalid. Any other OS failure: io_error.
    if (typeof code === 'string' && code !== 'ENOENT' && code !== 'EISDIR') throw osFailure(err, { op: 'read', role: 'cache', subject: dir });
    valid = false;
  }
  if (valid) {
    const m = manifest as Record<string, unknown> | null;
    const version = typeof m === 'object' && m !== null ? m['cache_version'] : undefined;
    const count = typeof m === 'object' && m !== null ? m['document_count'] : undefined;
    if (typeof version === 'string') cacheVersion = version;
    else valid = false;
    if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) documentCount = count;
    else valid = false;
  }
  let bytes = 0;
  if (valid) {
    const t = totalBytes(dir, isV1Manifest(manifest));
    if (t === null) valid = false;
    else bytes = t;
  }
  // valid means what resolve accepts: the cache is opened and answers a query as resolve
  // would (for v0, every manifest, index and document check; for v1, the manifest and the
  // packs' heads). What only verify checks (whole packs, the index rebuilt) stays verify's.
  if (valid && !resolveAccepts(dir)) valid = false;
  const v1 = isV1Manifest(manifest) ? summarizeV1(dir) : null;
  return { cache_version: cacheVersion, document_count: documentCount, total_bytes: bytes, valid, ...(v1 === null ? {} : { v1 }) };
}

/** Whether resolve accepts the cache: it opens and answers the empty query (any typed failure: no). */
function resolveAccepts(dir: string): boolean {
  try {
    const engine = openEngine(dir, []);
    try {
      engine.resolve('', 0, 'content');
    } finally {
      engine.close();
    }
    return true;
  } catch (err) {
    if (err instanceof ContextError) return false;
    throw err;
  }
}

export function inspectJson(r: InspectResult): Json {
  const seed = { cache_version: r.cache_version, document_count: r.document_count, total_bytes: r.total_bytes, valid: r.valid };
  if (r.v1 === undefined) return seed;
  // document_count is the seed's, already above.
  const { document_count: _count, ...held } = v1SummaryJson(r.v1);
  return { ...seed, ...held };
}
