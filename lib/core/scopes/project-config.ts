// The project-wide scan settings: dotcontext's optional `.context.config.yaml` (min_tokens,
// max_depth, ignore) and the ignore rules every scope shares — the root `.gitignore`,
// `.contextignore`, the config's `ignore` list — plus nested `.gitignore` files.

import { join } from 'node:path';
import { readText } from '../fs.js';
import { CONFIG_FILENAME, parseYaml } from './context-file.js';
import { IgnoreStack } from '../sources/gitignore.js';
import { dirOf } from './scope-path.js';

export const DEFAULT_MIN_TOKENS = 4096;
export const DEFAULT_MAX_DEPTH = 10;

export interface ProjectConfig {
  /** A directory is tracked when ceil(bytes / 4) reaches this; <= 0 tracks all. */
  readonly minTokens: number;
  /** Levels below the root the scan descends (the root is level 0). */
  readonly maxDepth: number;
  /** Rules that apply everywhere: `.gitignore`, then `.contextignore`, then the config's list (later wins). */
  readonly rootRules: IgnoreStack;
}

function readOptional(path: string): string | null {
  try {
    return readText(path);
  } catch {
    return null;
  }
}

/**
 * Loads the settings of the project at absolute `root`. A missing or unreadable config
 * gives the defaults; so does any field of the wrong type (dotcontext ignores a bad config).
 */
export function loadProjectConfig(root: string): ProjectConfig {
  let minTokens = DEFAULT_MIN_TOKENS;
  let maxDepth = DEFAULT_MAX_DEPTH;
  let extraIgnore: string[] = [];
  const configText = readOptional(join(root, CONFIG_FILENAME));
  if (configText !== null) {
    const parsed = parseYaml(configText);
    if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
      const config = parsed.value as Record<string, unknown>;
      const min = config['min_tokens'];
      if (typeof min === 'number' && Number.isSafeInteger(min)) minTokens = min;
      const depth = config['max_depth'];
      if (typeof depth === 'number' && Number.isSafeInteger(depth)) maxDepth = depth;
      const ignore = config['ignore'];
      if (Array.isArray(ignore)) extraIgnore = ignore.filter((p): p is string => typeof p === 'string');
    }
  }
  const rootRules = IgnoreStack.empty()
    .with('', readOptional(join(root, '.gitignore')) ?? '')
    .with('', readOptional(join(root, '.contextignore')) ?? '')
    .with('', extraIgnore);
  return { minTokens, maxDepth, rootRules };
}

/** `rules` plus a nested directory's own `.gitignore` (the root's is already loaded). */
export function withNestedGitignore(root: string, scope: string, rules: IgnoreStack): IgnoreStack {
  if (scope === '.') return rules;
  const text = readOptional(join(dirOf(root, scope), '.gitignore'));
  return text === null ? rules : rules.with(scope, text);
}

/** Every rule that applies to the files directly in `scope`: root rules, then ancestors'. */
export function rulesForScope(root: string, config: ProjectConfig, scope: string): IgnoreStack {
  let rules = config.rootRules;
  if (scope === '.') return rules;
  const parts = scope.split('/');
  for (let i = 1; i <= parts.length; i++) rules = withNestedGitignore(root, parts.slice(0, i).join('/'), rules);
  return rules;
}
