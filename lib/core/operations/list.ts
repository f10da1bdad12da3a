// `list-caches` / `context.list_caches` (seed 000): the immediate subdirectories of a cache
// root (symlinks not followed), each with whether manifest.json is a regular file; no
// parsing, sorted by name in UTF-8 byte order. An absent or unreadable root is io_error.

import { join } from 'node:path';
import { compareBytes, type Json } from '../../json.js';
import { osFailure } from '../../errors.js';
import * as fs from '../fs.js';
import { MANIFEST_FILE } from '../engine/v0/format.js';

export interface CacheListing {
  readonly path: string;
  readonly has_manifest: boolean;
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
    caches.push({ path: entry.name, has_manifest: manifest !== null && manifest.isFile() });
  }
  caches.sort((a, b) => compareBytes(a.path, b.path));
  return caches;
}

export function listingJson(caches: readonly CacheListing[]): Json {
  return { caches: caches.map((c) => ({ path: c.path, has_manifest: c.has_manifest })) };
}
