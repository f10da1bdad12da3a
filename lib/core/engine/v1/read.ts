// Reading a v1 cache's documents by name, for documents as resources: the page of documents
// after a path (manifest order is path byte order), a whole document's verified text, and one
// unit's text exactly as resolve prints it (the same slice of the same verified text).

import { compareBytes } from '../../../json.js';
import { ContextError } from '../../../errors.js';
import type { V1Cache } from './load.js';
import type { DocumentList } from './manifest.js';

export interface DocumentEntry {
  /** The document's path as resolve names it (v1: as on disk; v0: the lowercased id). */
  readonly path: string;
  /** UTF-8 bytes of its content. */
  readonly bytes: number;
}

/** Index of the first document whose path sorts after `after` (0 for null). */
function firstAfter(docs: DocumentList, after: string | null): number {
  if (after === null) return 0;
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes(docs.at(mid).path, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function v1Documents(cache: V1Cache, after: string | null, limit: number): DocumentEntry[] {
  const docs = cache.manifest.documents;
  const from = firstAfter(docs, after);
  const out: DocumentEntry[] = [];
  for (let i = from; i < Math.min(docs.length, from + limit); i++) {
    const d = docs.at(i);
    out.push({ path: d.path, bytes: d.bytes });
  }
  return out;
}

function documentIndex(cache: V1Cache, path: string): number {
  const docs = cache.manifest.documents;
  const i = firstAfter(docs, path) - 1;
  return i >= 0 && docs.at(i).path === path ? i : -1;
}

/**
 * The text of document `path` (slug null), or of its unit `slug` in a section cache ("" is
 * the part before the first heading); null when the cache has no such document or unit.
 */
export function v1ReadText(cache: V1Cache, path: string, slug: string | null): string | null {
  const doc = documentIndex(cache, path);
  if (doc < 0) return null;
  if (slug === null) return cache.text(doc);
  if (cache.manifest.config.options.granularity !== 'section') return null;
  const { index } = cache;
  // Units are numbered in document order: find the first of this document, then its run.
  let lo = 0;
  let hi = index.unitCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.unitDoc(mid) < doc) lo = mid + 1;
    else hi = mid;
  }
  for (let u = lo; u < index.unitCount && index.unitDoc(u) === doc; u++) {
    if (index.unitStrings(u).slug !== slug) continue;
    const text = cache.text(doc);
    const start = index.unitStart(u);
    const end = index.unitEnd(u);
    if (end > text.length) throw new ContextError('cache_invalid', 'index: a unit lies outside its document');
    return start === 0 && end === text.length ? text : text.slice(start, end);
  }
  return null;
}
