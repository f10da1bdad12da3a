// What an agent should do after a failed call of the citation and scope tools: one fixed
// sentence per cause, naming the cause and the next step, never a path, a stack or an OS
// code. The tool's text stays the CLI's bytes (content[0], and structuredContent parsed from
// it); the sentence travels as a second text block of a failed result (tool-wire.ts).

import type { ScopeFailure } from '../../core/scopes/api.js';
import type { Reason } from '../../core/citations/reasons.js';
import { parseJson } from '../../json.js';
import { isPlainObject } from '../json-rpc.js';

export const CITATION_HINTS: Readonly<Record<Reason, string>> = {
  path_escape: 'The path leaves root (through .. or a link pointing outside): give a path inside root, relative to it.',
  invalid_path: 'The path is not a usable relative path (empty, absolute, or holding a backslash or NUL): give it relative to root, with / between folders.',
  file_missing: 'No file at that path under root: check the path (relative to root) and its letter case, then call again.',
  not_a_file: 'That path is a folder, not a file: cite a file inside it.',
  range_invalid: 'The line range does not fit the file: start_line and end_line are 1-based and start_line <= end_line <= the number of lines in the file.',
  hash_mismatch: 'The cited lines changed since the citation was made: read the file again and cite the current lines with context.cite (moved_to, when given, says where the same text is now).',
  invalid_utf8: 'The file is not UTF-8 text, so it cannot be cited: cite a text file.',
  binary_file: 'The file is binary, so it cannot be cited: cite a text file.',
  symlink_skipped: 'The path is a symbolic link, and links are never followed: cite the file it points to by that file\'s own path.',
  exists: 'The claim said the path is missing, but something exists there: check the path, or claim exists instead.',
  missing: 'Nothing exists at that path under root: check the path, or claim missing if that is what you meant.',
  not_file: 'The path exists but is not a file: claim exists-dir or exists instead.',
  not_dir: 'The path exists but is not a folder: claim exists-file or exists instead.',
  invalid_input: 'The arguments do not have the documented form: follow this tool\'s inputSchema (root and path strings; start_line and end_line integers; kind one of exists, exists-file, exists-dir, missing).',
  io_error: 'The file could not be read (permissions or an I/O failure): make it readable, then call again.',
};

export const ROOT_HINT =
  'That root or path is outside the folders this server may read: pass a folder inside the server\'s project root (its --project-root), or a path relative to it.';

export const SCOPE_HINTS: Readonly<Record<ScopeFailure, string>> = {
  arguments: 'The arguments do not have the documented form: scope is a folder path relative to the project root, such as "src/core" or "."; path, when given, a project folder.',
  traversal: 'The scope leaves the project root: give a folder path relative to it, without "..".',
  missing: 'That folder has no .context.yaml: call context.list_contexts to see which scopes have one.',
  unsupported: 'The .context.yaml has a schema version this server does not read: write it again with a dotcontext that writes version 1.',
  corrupt: 'The .context.yaml is not a valid schema version 1 document: fix or regenerate it, then call again.',
  unreadable: 'Some files of the scope could not be read while fingerprinting: make them readable, then call again.',
  scan: 'The project folder could not be scanned: check that path names a readable folder inside the allowed roots.',
  exists: 'A .context.yaml already exists at that scope: edit it instead of creating it.',
};

function reasonsIn(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) reasonsIn(v, into);
    return;
  }
  if (!isPlainObject(value)) return;
  if (value['ok'] === false && typeof value['reason'] === 'string') into.add(value['reason']);
  reasonsIn(value['results'], into);
  reasonsIn(value['files'], into);
}

/**
 * The sentence for a failed citation answer (its CLI text): the reason's, or for a report
 * of several claims, one per distinct reason in byte order.
 */
export function citationHint(text: string): string {
  const reasons = new Set<string>();
  try {
    reasonsIn(parseJson(text), reasons);
  } catch {
    return CITATION_HINTS.invalid_input;
  }
  const known = [...reasons].filter((r): r is Reason => Object.prototype.hasOwnProperty.call(CITATION_HINTS, r)).sort();
  if (known.length === 0) return CITATION_HINTS.invalid_input;
  if (known.length === 1) return CITATION_HINTS[known[0] as Reason];
  return `Some claims no longer hold. ${known.map((r) => `${r}: ${CITATION_HINTS[r]}`).join(' ')}`;
}
