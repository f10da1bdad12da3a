// Argument parsing for every subcommand: minimist with all values kept as strings, unknown
// flags and stray positionals rejected as usage errors, so a typo never runs a command.

import { createRequire } from 'node:module';
import { HelpRequested, UsageError } from './command.js';

// Required, not imported: a CommonJS package loads faster so (no export scan).
const minimist = createRequire(import.meta.url)('minimist') as typeof import('minimist');

export interface FlagSpec {
  /** Flags that take a value (kept as the exact string given). */
  readonly strings?: readonly string[];
  /** Flags that take no value. */
  readonly booleans?: readonly string[];
  /** Flags that take a value and may be given several times (kept in order). */
  readonly lists?: readonly string[];
}

export type ParsedFlags = {
  readonly values: Readonly<Record<string, string | undefined>>;
  readonly flags: Readonly<Record<string, boolean>>;
  readonly lists: Readonly<Record<string, readonly string[]>>;
};

/**
 * Parses `--name value`, `--name=value` and boolean `--name`. A value may start with `-`
 * (`--budget -1`, `--query -x`): the token after a string flag is always its value.
 */
export function parseFlags(argv: readonly string[], spec: FlagSpec): ParsedFlags {
  const strings = new Set([...(spec.strings ?? []), ...(spec.lists ?? [])]);
  const listNames = new Set(spec.lists ?? []);
  const booleans = new Set(spec.booleans ?? []);
  // minimist would read a leading "-" value as a flag; bind such values with "=" first.
  const bound: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name !== undefined && strings.has(name) && i + 1 < argv.length) {
      bound.push(`--${name}=${argv[i + 1] as string}`);
      i++;
    } else {
      bound.push(arg);
    }
  }
  // A help flag counts only where it is not an option's value (`--query --help` searches).
  if (bound.includes('--help') || bound.includes('-h')) throw new HelpRequested();
  const parsed = minimist(bound, {
    string: [...strings],
    boolean: [...booleans],
    unknown: (arg: string) => {
      throw new UsageError(arg.startsWith('-') ? `unknown option ${arg}` : `unexpected argument ${arg}`);
    },
  });
  const values: Record<string, string | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const name of listNames) {
    if (bound.includes(`--${name}`)) throw new UsageError(`--${name} needs a value`);
    const v: unknown = parsed[name];
    lists[name] = v === undefined || !bound.some((a) => a.startsWith(`--${name}=`)) ? [] : (Array.isArray(v) ? v : [v]).map(String);
  }
  for (const name of strings) {
    if (listNames.has(name)) continue;
    const v: unknown = parsed[name];
    if (Array.isArray(v)) throw new UsageError(`--${name} given more than once`);
    // minimist sets "" for a string flag that is absent; tell "absent" from "empty" by argv.
    const present = bound.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (present && bound.includes(`--${name}`)) throw new UsageError(`--${name} needs a value`);
    values[name] = present ? String(v) : undefined;
  }
  const flags: Record<string, boolean> = {};
  for (const name of booleans) flags[name] = parsed[name] === true;
  return { values, flags, lists };
}

/** The value of a required string flag, or a usage error naming it. */
export function required(parsed: ParsedFlags, name: string): string {
  const v = parsed.values[name];
  if (v === undefined) throw new UsageError(`missing required option --${name}`);
  return v;
}
