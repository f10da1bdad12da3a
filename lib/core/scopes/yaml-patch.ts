// Rewrites top-level scalar values of a YAML document in place: only the characters of
// each value change — comments, key order, quoting style and every other byte stay. The
// result is re-parsed and must mean the old document with just those values replaced.

import { isDeepStrictEqual } from 'node:util';
import type { Scalar } from 'yaml';
import { yamlLib } from './yaml-lib.js';

function doubleQuoted(value: string): string {
  return '"' + value.replace(/[\\"]/g, (c) => '\\' + c) + '"';
}

/** The new value written in the old value's style where that style can carry it. */
function render(value: string, type: Scalar['type'], oldText: string): string {
  switch (type) {
    case yamlLib().Scalar.QUOTE_SINGLE:
      return "'" + value.replace(/'/g, "''") + "'";
    case yamlLib().Scalar.PLAIN: {
      // Plain only if it reads back as the same string (an all-digit fingerprint would
      // read as a number): checked on the scalar alone, then again on the whole document.
      const doc = yamlLib().parseDocument(value);
      return doc.errors.length === 0 && doc.toJS() === value ? value : doubleQuoted(value);
    }
    case yamlLib().Scalar.BLOCK_FOLDED:
    case yamlLib().Scalar.BLOCK_LITERAL:
      // A block scalar owns its line break; the quoted replacement must keep it.
      return doubleQuoted(value) + (oldText.endsWith('\n') ? '\n' : '');
    default:
      return doubleQuoted(value);
  }
}

/**
 * `text` with each top-level key in `values` given its new string value, or null when the
 * document cannot be patched that way (not a mapping, a key absent or not a plain scalar
 * value, an alias or anchor involved, or the re-parse disagreeing).
 */
export function patchTopLevelScalars(text: string, values: Readonly<Record<string, string>>): string | null {
  const doc = yamlLib().parseDocument(text);
  if (doc.errors.length > 0 || !yamlLib().isMap(doc.contents)) return null;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [key, value] of Object.entries(values)) {
    const pair = doc.contents.items.find((p) => yamlLib().isScalar(p.key) && p.key.value === key);
    const node = pair?.value;
    if (!yamlLib().isScalar(node) || node.range == null || node.anchor !== undefined) return null;
    const [start, end] = node.range;
    edits.push({ start, end, text: render(value, node.type, text.slice(start, end)) });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  const before = doc.toJS() as unknown;
  const after = yamlLib().parseDocument(out);
  if (after.errors.length > 0) return null;
  const expected = { ...(before as Record<string, unknown>), ...values };
  return isDeepStrictEqual(after.toJS(), expected) ? out : null;
}
