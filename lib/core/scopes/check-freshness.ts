// `check_freshness` / `context freshness`: is one scope's `.context.yaml` still current?
// Shapes, texts and isError follow seed 003: stale is an answer, not an error; missing,
// traversal, unsupported and corrupt files carry `error` and state "missing".

import type { Json } from '../../json.js';
import { readContextFile } from './context-file.js';
import { fingerprintDir, judgeFreshness } from './fingerprint.js';
import {
  TRAVERSAL_ERROR,
  corruptContextError,
  missingContextError,
  unreadableScopeError,
  unsupportedVersionError,
} from './messages.js';
import { outcome, type ProjectRoot, type ScopeFailure, type ScopeOutcome } from './outcome.js';
import { loadProjectConfig, rulesForScope } from './project-config.js';
import { normalizeScope, resolveScope, scopeOf } from './scope-path.js';

function failed(scope: string, error: string, failure: ScopeFailure): ScopeOutcome {
  const value: Json = { scope, state: 'missing', error };
  return outcome(value, true, failure);
}

export function checkFreshness(root: ProjectRoot, rawScope: string): ScopeOutcome {
  const scope = normalizeScope(rawScope);
  const dir = resolveScope(root.dir, scope);
  if (dir === null) return failed(scope, TRAVERSAL_ERROR, 'traversal');
  const read = readContextFile(root.dir, dir);
  switch (read.kind) {
    case 'absent':
      return failed(scope, missingContextError(scope), 'missing');
    case 'unsupported':
      return failed(scope, unsupportedVersionError(read.version), 'unsupported');
    case 'corrupt':
      return failed(scope, corruptContextError(scope), 'corrupt');
    case 'valid':
      break;
  }
  const stored = read.context['fingerprint'] as string;
  let verdict;
  try {
    const rel = scopeOf(root.dir, dir);
    const rules = rulesForScope(root.dir, loadProjectConfig(root.dir), rel);
    verdict = judgeFreshness(stored, fingerprintDir(dir, rel, rules));
  } catch {
    return failed(scope, unreadableScopeError(scope), 'unreadable');
  }
  const value: Json = {
    scope,
    state: verdict.state,
    fingerprint: { stored, computed: verdict.computed },
    last_updated: read.context['last_updated'] as string,
  };
  return outcome(value, false);
}
