// `context scope init`: writes a schema-valid `.context.yaml` skeleton for one directory —
// the current content fingerprint, the caller's last_updated, the directory's files and
// subdirectories by name, TODO placeholders for what a person or an agent must say — and
// never overwrites: an existing file (or anything at that name) is refused, untouched.

import { join } from 'node:path';
import { compact, compareBytes, type Json } from '../../json.js';
import { createFile, readDir, statOrNull } from '../fs.js';
import { classifyContextText, CONFIG_FILENAME, CONTEXT_FILENAME } from './context-file.js';
import { fingerprintDir } from './fingerprint.js';
import { existingContextError, noDirectoryError, TRAVERSAL_ERROR, unreadableScopeError, writeFailedError } from './messages.js';
import { outcome, type ProjectRoot, type ScopeOutcome } from './outcome.js';
import { loadProjectConfig, rulesForScope } from './project-config.js';
import { normalizeScope, resolveScope, scopeOf } from './scope-path.js';
import { ALWAYS_IGNORED_DIRS } from './tracked-dirs.js';

/** YAML double-quoted scalar: JSON's string syntax is valid YAML 1.2. */
const q = (s: string): string => compact(s);

interface Listing {
  readonly files: readonly string[];
  readonly dirs: readonly string[];
}

/** The directory's own files and subdirectories as the scope walk sees them, byte order. */
function listDir(root: string, dir: string, scope: string): Listing {
  const rules = rulesForScope(root, loadProjectConfig(root), scope);
  const files: string[] = [];
  const dirs: string[] = [];
  for (const entry of readDir(dir)) {
    const name = entry.name;
    if (name === CONTEXT_FILENAME || name === CONFIG_FILENAME) continue;
    const rel = scope === '.' ? name : `${scope}/${name}`;
    if (entry.isFile() && !rules.ignores(rel, false)) files.push(name);
    if (entry.isDirectory() && !name.startsWith('.') && !ALWAYS_IGNORED_DIRS.has(name) && !rules.ignores(rel, true)) dirs.push(name);
  }
  return { files: files.sort(compareBytes), dirs: dirs.sort(compareBytes) };
}

/** The skeleton's text: required fields first, in schema order, then commented hints. */
export function skeletonText(scope: string, fingerprint: string, lastUpdated: string, listing: Listing): string {
  const lines = [
    `# .context.yaml for scope ${q(scope)}: dotcontext schema v1 (https://dotcontext.dev).`,
    '# Written by `context scope init`. Replace every TODO, delete what does not apply, and',
    `# keep it current: context freshness --scope ${q(scope)} says when the directory changed,`,
    `# and context rehash --scope ${q(scope)} stamps its new fingerprint once this file is right again.`,
    'version: 1',
    `last_updated: ${q(lastUpdated)}`,
    `fingerprint: ${q(fingerprint)}`,
    `scope: ${q(scope)}`,
    'summary: "TODO: what this directory is for and what lives here, in two or three sentences."',
  ];
  if (listing.files.length > 0) {
    lines.push('files:');
    for (const name of listing.files) lines.push(`  - name: ${q(name)}`, '    purpose: "TODO: what this file does."');
  }
  lines.push(`maintenance: ${q(`Update this file when files here are added, removed or change purpose; then run context rehash --scope ${scope}.`)}`);
  if (listing.dirs.length > 0) {
    lines.push('subdirectories:');
    for (const name of listing.dirs) lines.push(`  - name: ${q(name)}`, '    summary: "TODO: what this subdirectory holds."');
  }
  lines.push(
    '# Optional fields (uncomment and fill in what helps a reader; see the schema for more):',
    '# interfaces:',
    '#   - name: "TODO: an exported function, type or command"',
    '#     description: "TODO: what it does and guarantees"',
    '# decisions:',
    '#   - what: "TODO: a decision taken here"',
    '#     why: "TODO: the reason"',
    '# constraints:',
    '#   - "TODO: a rule code here must follow"',
    '',
  );
  return lines.join('\n');
}

function refused(scope: string, error: string, failure: 'traversal' | 'missing' | 'exists' | 'unreadable'): ScopeOutcome {
  const value: Json = { scope, result: 'refused', error };
  return outcome(value, true, failure);
}

/**
 * Creates `<scope>/.context.yaml` under `root`; `lastUpdated` is the caller's time (the
 * core reads no clock). The file is created exclusively: if anything exists at that name
 * when it is written, nothing is changed and the answer is `exists`.
 */
export function initScope(root: ProjectRoot, rawScope: string, lastUpdated: string): ScopeOutcome {
  const scope = normalizeScope(rawScope);
  const dir = resolveScope(root.dir, scope);
  if (dir === null) return refused(scope, TRAVERSAL_ERROR, 'traversal');
  const info = statOrNull(dir);
  if (info === null || !info.isDirectory()) return refused(scope, noDirectoryError(scope), 'missing');
  const file = join(dir, CONTEXT_FILENAME);
  // The canonical scope (`lib/core`, whatever spelling the caller used) goes into the file.
  const rel = scopeOf(root.dir, dir);
  let text: string;
  let fingerprint: string;
  try {
    fingerprint = fingerprintDir(dir, rel, rulesForScope(root.dir, loadProjectConfig(root.dir), rel)).content;
    text = skeletonText(rel, fingerprint, lastUpdated, listDir(root.dir, dir, rel));
  } catch {
    return refused(scope, unreadableScopeError(scope), 'unreadable');
  }
  // A skeleton that would not read back as valid is a bug here, never a file on disk.
  if (classifyContextText(text).kind !== 'valid') throw new Error(`scope init: skeleton for ${scope} is not schema-valid`);
  try {
    createFile(file, text);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'EEXIST') return refused(scope, existingContextError(scope), 'exists');
    return refused(scope, writeFailedError(scope), 'unreadable');
  }
  const created = rel === '.' ? CONTEXT_FILENAME : `${rel}/${CONTEXT_FILENAME}`;
  return outcome({ scope, result: 'created', file: created, fingerprint, last_updated: lastUpdated }, false);
}
