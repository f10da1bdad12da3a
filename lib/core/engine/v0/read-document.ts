// Reading a v0 cache's documents by id, for documents as resources: a v0 unit is a whole
// document, named by its id (the lowercased source path resolve prints), sorted by id in
// byte order when loaded (load.ts).

import { compareBytes } from '../../../json.js';
import type { SelectableDocument } from './select.js';

function firstAfter(docs: readonly SelectableDocument[], after: string | null): number {
  if (after === null) return 0;
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes((docs[mid] as SelectableDocument).id, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function v0Documents(docs: readonly SelectableDocument[], after: string | null, limit: number): { path: string; bytes: number }[] {
  const from = firstAfter(docs, after);
  return docs.slice(from, from + limit).map((d) => ({ path: d.id, bytes: Buffer.byteLength(d.content, 'utf8') }));
}

/** The content of document `id`; null for a missing id or any slug (v0 has no sections). */
export function v0ReadText(docs: readonly SelectableDocument[], id: string, slug: string | null): string | null {
  if (slug !== null) return null;
  const i = firstAfter(docs, id) - 1;
  const d = docs[i];
  return d !== undefined && d.id === id ? d.content : null;
}
