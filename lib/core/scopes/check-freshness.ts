// `check_freshness` / `context freshness`: is one scope's `.context.yaml` still current?
// Shapes, texts and isError follow seed 003: stale is an answer, not an error; missing,
// traversal, unsupported and corrupt files carry `error` and state "missing".

import type { Json } from '../../json.js';
import { fingerprintDir, judgeFreshness } from './fingerprint.js';
import { unreadableScopeError } from './messages.js';
import { outcome, type ProjectRoot, type ScopeFailure, type ScopeOutcome } from './outcome.js';
import { loadProjectConfig, rulesForScope } from './project-config.js';
import { readScope } from './read-scope.js';
import { scopeOf } from './scope-path.js';

function failed(scope: string, error: string, failure: ScopeFailure): ScopeOutcome {
  const value: Json = { scope, state: 'missing', error };
  return outcome(value, true, failure);
}

export function checkFreshness(root: ProjectRoot, rawScope: string): ScopeOutcome {
  const read = readScope(root.dir, rawScope);
  if (!read.ok) return failed(read.scope, read.error, read.failure);
  const { scope, dir } = read;
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
