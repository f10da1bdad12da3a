// `list-caches` / `context.list_caches` (seed 000): the immediate subdirectories of a cache
// root (symlinks not followed), each with whether manifest.json is a regular file, sorted
// by name in UTF-8 byte order. An absent or unreadable root is io_error. An engine v1 cache
// also says what it holds (issue 46 item 4): engine, label, granularity, tokenizer, formats
// and document_count, after the seed's two fields; any other entry (a v0 cache, a folder
// that is no cache, a v1 cache whose manifest does not read) is exactly the seed's.

import { join } from 'node:path';
import { compareBytes, type Json } from '../../json.js';
import { osFailure } from '../../errors.js';
import * as fs from '../fs.js';
import { MANIFEST_FILE } from '../engine/v0/format.js';
import { summarizeV1, type V1Summary } from '../engine/v1/summary.js';

export interface CacheListing {
  readonly path: string;
  readonly has_manifest: boolean;
  /** An engine v1 cache: what it holds. */
  readonly v1?: V1Summary;
}

export function listCaches(root: string): CacheListing[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readDir(root);
  } catch (err) {
    throw osFailure(err, { op: 'list', role: 'cache_root', subject: root });
  }
  const caches: CacheListing[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    let manifest: fs.Stats | null;
    try {
      manifest = fs.lstatOrNull(join(root, entry.name, MANIFEST_FILE));
    } catch (err) {
      // Even "not there" (a folder turned into a file meanwhile) is an I/O failure here.
      throw osFailure(err, { op: 'examine', role: 'cache_root', subject: root, path: join(root, entry.name, MANIFEST_FILE) }, 'io_error');
    }
    const hasManifest = manifest !== null && manifest.isFile();
    const v1 = hasManifest ? summarizeV1(join(root, entry.name)) : null;
    caches.push({ path: entry.name, has_manifest: hasManifest, ...(v1 === null ? {} : { v1 }) });
  }
  caches.sort((a, b) => compareBytes(a.path, b.path));
  return caches;
}

/** One entry: the seed's {path, has_manifest}, then a v1 cache's summary. */
export function listingEntryJson(c: CacheListing): Json {
  const entry: Record<string, Json> = { path: c.path, has_manifest: c.has_manifest };
  if (c.v1 !== undefined) Object.assign(entry, v1SummaryJson(c.v1));
  return entry;
}

/** A v1 cache's summary as list-caches and inspect print it (label null when it has none). */
export function v1SummaryJson(v: V1Summary): Record<string, Json> {
  return { engine: 'v1', label: v.label, granularity: v.granularity, tokenizer: v.tokenizer, formats: { ...v.formats }, document_count: v.documentCount };
}

export function listingJson(caches: readonly CacheListing[]): Json {
  return { caches: caches.map(listingEntryJson) };
}
