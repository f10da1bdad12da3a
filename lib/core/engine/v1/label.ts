// A cache's label (issue 46 item 4, "Caches an agent finds by name"): a short name a person
// gives a build (`--label fastapi@0.115`), recorded in an engine v1 manifest and shown by
// list-caches, inspect and the MCP server, so an agent can find a cache by what it holds.
// The label names a cache, it shapes no answer: it is informational like created_at and
// source_root, never hashed, so identical content keeps one cache_version whatever it is
// called (docs/cache-format.md).

/** At most this many characters (ASCII, so as many bytes). */
export const MAX_LABEL_LENGTH = 64;

/** 1 to 64 of letters, digits and `. _ @ / + -`: a package name and version, a repository, a tag. */
export const LABEL_PATTERN = /^[A-Za-z0-9._@/+-]{1,64}$/;

/** What a valid label is, said in every refusal. */
export const LABEL_FORM = `a label is 1 to ${MAX_LABEL_LENGTH} characters of letters, digits and . _ @ / + - (e.g. fastapi@0.115)`;

export function isLabel(value: unknown): value is string {
  return typeof value === 'string' && LABEL_PATTERN.test(value);
}
