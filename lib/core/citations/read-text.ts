// Reading a cited file the way VeriContext does: `lstat` first (symlink, non-file and
// absent are reasons, never followed), a NUL in the first 8192 bytes is binary, strict
// UTF-8 (a leading BOM is dropped, as TextDecoder does), then CRLF and lone CR become LF.

import { isAbsentError, type WorkspaceFs } from './workspace-fs.js';

export type ReadFailure = 'file_missing' | 'symlink_skipped' | 'not_a_file' | 'binary_file' | 'invalid_utf8' | 'io_error';

export type TextRead =
  | { readonly ok: true; readonly text: string; readonly lines: readonly string[] }
  | { readonly ok: false; readonly reason: ReadFailure };

/** How many leading bytes are probed for a NUL byte. */
export const BINARY_PROBE_BYTES = 8192;

/** `\r\n` and lone `\r` become `\n`. */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Lines of normalised text: split on `\n`, so a trailing newline yields a final "". */
export function splitLines(text: string): string[] {
  return text.split('\n');
}

/** Bytes to canonical text: binary probe, strict UTF-8, line endings normalised. */
export function decodeCanonical(bytes: Uint8Array): TextRead {
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { ok: false, reason: 'binary_file' };
  let decoded: string;
  try {
    // A fresh decoder per call: `fatal` decoders are stateless only between whole decodes.
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'invalid_utf8' };
  }
  const text = normalizeLineEndings(decoded);
  return { ok: true, text, lines: splitLines(text) };
}

/** Reads `absolutePath` (already checked to lie under the root) as canonical text. */
export function readCanonicalText(fs: WorkspaceFs, absolutePath: string): TextRead {
  let kind;
  try {
    kind = fs.lstat(absolutePath);
  } catch (err) {
    return { ok: false, reason: isAbsentError(err) ? 'file_missing' : 'io_error' };
  }
  if (kind === 'symlink') return { ok: false, reason: 'symlink_skipped' };
  if (kind !== 'file') return { ok: false, reason: 'not_a_file' };
  let bytes: Uint8Array;
  try {
    bytes = fs.readFile(absolutePath);
  } catch (err) {
    return { ok: false, reason: isAbsentError(err) ? 'file_missing' : 'io_error' };
  }
  return decodeCanonical(bytes);
}
