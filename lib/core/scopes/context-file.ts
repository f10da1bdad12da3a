// Reads one directory's `.context.yaml` and says what it is: absent, written by a newer
// schema version, corrupt (bad YAML or any schema violation), or a valid v1 context.
// A file that is a symlink resolving outside the project root counts as absent.

import { join } from 'node:path';
import { yamlLib } from './yaml-lib.js';
import { lstatOrNull, readText, realPath } from '../fs.js';
import { classifyContext, type ContextData } from './schema.js';
import { isInside } from './scope-path.js';

export const CONTEXT_FILENAME = '.context.yaml';
export const CONFIG_FILENAME = '.context.config.yaml';

export type ContextRead =
  | { readonly kind: 'absent' }
  | { readonly kind: 'unsupported'; readonly version: number }
  | { readonly kind: 'corrupt' }
  | { readonly kind: 'valid'; readonly context: ContextData };

/** Parses YAML text strictly: one document, no syntax errors, no duplicate keys. */
export function parseYaml(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const doc = yamlLib().parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0) return { ok: false };
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Classifies YAML text as a context file (used for files and for conformance cases). */
export function classifyContextText(text: string): Exclude<ContextRead, { kind: 'absent' }> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return { kind: 'corrupt' };
  const verdict = classifyContext(parsed.value);
  switch (verdict.kind) {
    case 'valid':
      return { kind: 'valid', context: verdict.context };
    case 'unsupported':
      return { kind: 'unsupported', version: verdict.version };
    case 'invalid':
      return { kind: 'corrupt' };
  }
}

function insideRoot(realRoot: string, file: string): boolean {
  try {
    return isInside(realRoot, realPath(file));
  } catch {
    return false;
  }
}

/** The context of directory `dir` (absolute), which lies inside project root `root`. */
export function readContextFile(root: string, dir: string): ContextRead {
  const file = join(dir, CONTEXT_FILENAME);
  let info;
  try {
    info = lstatOrNull(file);
  } catch {
    return { kind: 'absent' };
  }
  if (info === null || info.isDirectory()) return info === null ? { kind: 'absent' } : { kind: 'corrupt' };
  if (info.isSymbolicLink()) {
    let realRoot: string;
    try {
      realRoot = realPath(root);
    } catch {
      return { kind: 'absent' };
    }
    if (!insideRoot(realRoot, file)) return { kind: 'absent' };
  }
  let text: string;
  try {
    text = readText(file);
  } catch {
    return { kind: 'corrupt' };
  }
  return classifyContextText(text);
}
