// `context rehash`: gives stale (or dotcontext-stamped) `.context.yaml` files our content
// fingerprint and the caller's `last_updated`, touching no other byte. Files already
// carrying our fingerprint are left alone; unreadable or invalid ones are reported, never written.

import { join } from 'node:path';
import type { Json } from '../../json.js';
import { isUtf8, readFile, writeFile } from '../fs.js';
import { CONTEXT_FILENAME, readContextFile } from './context-file.js';
import { fingerprintDir } from './fingerprint.js';
import {
  TRAVERSAL_ERROR,
  corruptContextError,
  missingContextError,
  scanFailedError,
  unreadableScopeError,
  unsupportedVersionError,
} from './messages.js';
import { outcome, type ProjectRoot, type ScopeFailure, type ScopeOutcome } from './outcome.js';
import { loadProjectConfig, rulesForScope, type ProjectConfig } from './project-config.js';
import { normalizeScope, resolveScope, scopeOf } from './scope-path.js';
import { patchTopLevelScalars } from './yaml-patch.js';
import { scanTrackedDirs } from './tracked-dirs.js';
import { scanFailureReason } from './scan-failure.js';

/**
 * Which files to rehash: one scope, or every file in the scanned tree — below min_tokens
 * too (a file that exists should stay current), but not in ignored or hidden folders.
 */
export type RehashTarget = { readonly scope: string } | 'all';

interface Entry {
  readonly json: Json;
  readonly failure?: ScopeFailure;
}

function skipped(scope: string, error: string, failure: ScopeFailure): Entry {
  return { json: { scope, result: 'skipped', error }, failure };
}

/** Rehashes the file in absolute `dir`; `scope` is what the entry shows. */
function rehashDir(root: string, config: ProjectConfig, dir: string, scope: string, lastUpdated: string): Entry | null {
  const read = readContextFile(root, dir);
  switch (read.kind) {
    case 'absent':
      return null;
    case 'unsupported':
      return skipped(scope, unsupportedVersionError(read.version), 'unsupported');
    case 'corrupt':
      return skipped(scope, corruptContextError(scope), 'corrupt');
    case 'valid':
      break;
  }
  const previous = read.context['fingerprint'] as string;
  const file = join(dir, CONTEXT_FILENAME);
  try {
    const rel = scopeOf(root, dir);
    const current = fingerprintDir(dir, rel, rulesForScope(root, config, rel)).content;
    if (current === previous) return { json: { scope, result: 'unchanged', fingerprint: current } };
    const bytes = readFile(file);
    if (!isUtf8(bytes)) return skipped(scope, corruptContextError(scope), 'corrupt');
    const patched = patchTopLevelScalars(bytes.toString('utf8'), { fingerprint: current, last_updated: lastUpdated });
    if (patched === null) return skipped(scope, corruptContextError(scope), 'corrupt');
    writeFile(file, patched);
    return { json: { scope, result: 'updated', fingerprint: { previous, current }, last_updated: lastUpdated } };
  } catch {
    return skipped(scope, unreadableScopeError(scope), 'unreadable');
  }
}

/**
 * Rehashes `target` under `root`. `lastUpdated` is the time to stamp (the CLI decides
 * it; the core never reads a clock). isError when a named scope or any file was skipped.
 */
export function rehashContexts(root: ProjectRoot, target: RehashTarget, lastUpdated: string): ScopeOutcome {
  const entries: Entry[] = [];
  let config: ProjectConfig;
  try {
    config = loadProjectConfig(root.dir);
    if (target === 'all') {
      for (const dir of scanTrackedDirs(root.dir, config).candidates) {
        const entry = rehashDir(root.dir, config, dir.dir, dir.scope, lastUpdated);
        if (entry !== null) entries.push(entry);
      }
    }
  } catch (err) {
    const error = scanFailedError(root.label);
    const reason = scanFailureReason(err, root.dir);
    const value: Json = { root: root.label, updated: 0, unchanged: 0, skipped: 0, entries: [], error, reason };
    return outcome(value, true, 'scan', `${error}: ${reason}`);
  }
  if (target !== 'all') {
    const scope = normalizeScope(target.scope);
    const dir = resolveScope(root.dir, scope);
    const entry =
      dir === null
        ? skipped(scope, TRAVERSAL_ERROR, 'traversal')
        : (rehashDir(root.dir, config, dir, scope, lastUpdated) ?? skipped(scope, missingContextError(scope), 'missing'));
    entries.push(entry);
  }
  const count = (result: string): number =>
    entries.filter((e) => (e.json as { result: string }).result === result).length;
  const firstSkip = entries.find((e) => e.failure !== undefined);
  const failure = firstSkip?.failure;
  const value: Json = {
    root: root.label,
    updated: count('updated'),
    unchanged: count('unchanged'),
    skipped: count('skipped'),
    entries: entries.map((e) => e.json),
  };
  const error = (firstSkip?.json as { error?: string } | undefined)?.error;
  return outcome(value, failure !== undefined, failure, error);
}
