// Every reason a citation, structure claim or verification can fail with, in one list.
// The names are VeriContext's (so existing tooling keeps reading them), plus `io_error`
// for an OS failure other than "not there" (this engine never guesses "missing" then).

export const REASONS = [
  'path_escape',
  'invalid_path',
  'file_missing',
  'not_a_file',
  'range_invalid',
  'hash_mismatch',
  'invalid_utf8',
  'binary_file',
  'symlink_skipped',
  'exists',
  'missing',
  'not_file',
  'not_dir',
  'invalid_input',
  'io_error',
] as const;

export type Reason = (typeof REASONS)[number];

/** The four structure-claim kinds, in the order the token grammar lists them. */
export const STRUCTURE_KINDS = ['exists', 'exists-file', 'exists-dir', 'missing'] as const;

export type StructureKind = (typeof STRUCTURE_KINDS)[number];

export function isStructureKind(value: unknown): value is StructureKind {
  return typeof value === 'string' && (STRUCTURE_KINDS as readonly string[]).includes(value);
}
