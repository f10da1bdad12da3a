// The bounds on what shapes a source walk, so that no argument and no file in the tree can
// stall a build or exceed the regular-expression engine's limits: --include/--exclude (and
// the MCP build's arrays) take at most MAX_GLOBS globs of at most MAX_GLOB_BYTES bytes each,
// refused as a usage error (-32602 over MCP); a .gitignore line longer than
// MAX_IGNORE_LINE characters is not applied, and the build reports it and goes on.
// Measured (picomatch 4, one core): the worst 1 KiB glob (nested braces) compiles in ~45 ms.

export const MAX_GLOBS = 64;
export const MAX_GLOB_BYTES = 1024;
export const MAX_IGNORE_LINE = 4096;

/** Why a list of globs is refused, or null when it is within the limits (and has no empty glob). */
export function globListProblem(globs: readonly string[]): string | null {
  if (globs.includes('')) return 'needs a non-empty glob';
  if (globs.length > MAX_GLOBS) return `takes at most ${MAX_GLOBS} globs, not ${globs.length}`;
  if (globs.some((g) => Buffer.byteLength(g, 'utf8') > MAX_GLOB_BYTES)) return `takes globs of at most ${MAX_GLOB_BYTES} bytes each`;
  return null;
}
