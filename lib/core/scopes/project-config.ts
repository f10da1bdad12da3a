// The project-wide scan settings: dotcontext's optional `.context.config.yaml` (min_tokens,
// max_depth, ignore) and the ignore rules every scope shares — the root `.gitignore`,
// `.contextignore`, the config's `ignore` list — plus nested `.gitignore` files.

import { join } from 'node:path';
import { readText } from '../fs.js';
import { CONFIG_FILENAME, parseYaml } from './context-file.js';
import { parseIgnoreRules, type IgnoreRule } from './ignore-rules.js';
import { dirOf } from './scope-path.js';

export const DEFAULT_MIN_TOKENS = 4096;
export const DEFAULT_MAX_DEPTH = 10;

export interface ProjectConfig {
  /** A directory is tracked when ceil(bytes / 4) reaches this; <= 0 tracks all. */
  readonly minTokens: number;
  /** Levels below the root the scan descends (the root is level 0). */
  readonly maxDepth: number;
  /** Rules that apply everywhere, in precedence order (later wins). */
  readonly rootRules: readonly IgnoreRule[];
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
  const rootRules = [
    ...parseIgnoreRules(readOptional(join(root, '.gitignore')) ?? '', ''),
    ...parseIgnoreRules(readOptional(join(root, '.contextignore')) ?? '', ''),
    ...parseIgnoreRules(extraIgnore.join('\n'), ''),
  ];
  return { minTokens, maxDepth, rootRules };
}

/** The rules of a nested directory's own `.gitignore` (none for the root: already loaded). */
export function nestedGitignoreRules(root: string, scope: string): IgnoreRule[] {
  if (scope === '.') return [];
  const text = readOptional(join(dirOf(root, scope), '.gitignore'));
  return text === null ? [] : parseIgnoreRules(text, scope);
}

/** Every rule that applies to the files directly in `scope`: root rules, then ancestors'. */
export function rulesForScope(root: string, config: ProjectConfig, scope: string): IgnoreRule[] {
  const rules = [...config.rootRules];
  if (scope === '.') return rules;
  const parts = scope.split('/');
  for (let i = 1; i <= parts.length; i++) rules.push(...nestedGitignoreRules(root, parts.slice(0, i).join('/')));
  return rules;
}
