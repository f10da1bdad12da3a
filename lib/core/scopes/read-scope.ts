// Reads the `.context.yaml` of one scope named by a caller: the scope normalized, traversal
// refused, then absent, unsupported and corrupt files told apart — the steps every
// per-scope answer (freshness, query) shares, with seed 003's error texts.

import { readContextFile } from './context-file.js';
import { TRAVERSAL_ERROR, corruptContextError, missingContextError, unsupportedVersionError } from './messages.js';
import type { ScopeFailure } from './outcome.js';
import type { ContextData } from './schema.js';
import { normalizeScope, resolveScope } from './scope-path.js';

export type ScopeRead =
  | { readonly ok: true; readonly scope: string; readonly dir: string; readonly context: ContextData }
  | { readonly ok: false; readonly scope: string; readonly error: string; readonly failure: ScopeFailure };

export function readScope(rootDir: string, rawScope: string): ScopeRead {
  const scope = normalizeScope(rawScope);
  const dir = resolveScope(rootDir, scope);
  if (dir === null) return { ok: false, scope, error: TRAVERSAL_ERROR, failure: 'traversal' };
  const read = readContextFile(rootDir, dir);
  switch (read.kind) {
    case 'absent':
      return { ok: false, scope, error: missingContextError(scope), failure: 'missing' };
    case 'unsupported':
      return { ok: false, scope, error: unsupportedVersionError(read.version), failure: 'unsupported' };
    case 'corrupt':
      return { ok: false, scope, error: corruptContextError(scope), failure: 'corrupt' };
    case 'valid':
      return { ok: true, scope, dir, context: read.context };
  }
}
