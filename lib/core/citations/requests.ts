// Arguments of the three operations, as both faces hand them over (MCP names: root, path,
// start_line, end_line, kind, in_path, text), validated in one place so the CLI and MCP
// accept and refuse exactly the same inputs. Anything malformed is `invalid_input` (null).

import { isStructureKind, type StructureKind } from './reasons.js';
import type { VerifyInput } from './verify.js';

export type RawArgs = Readonly<Record<string, unknown>>;

export interface CiteRequest {
  readonly root: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
}

export interface ClaimRequest {
  readonly root: string;
  readonly kind: StructureKind;
  readonly path: string;
}

export type VerifyRequest = { readonly root: string } & VerifyInput;

/** Keys outside `allowed` make the whole request invalid (a typo never runs a check). */
function onlyKeys(args: RawArgs, allowed: readonly string[]): boolean {
  return Object.keys(args).every((key) => allowed.includes(key) || args[key] === undefined);
}

function root(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && !value.includes('\0') ? value : null;
}

/**
 * A line number: a JSON integer, or a string of decimal digits with an optional leading
 * `-` (the CLI's form). Range rules (1 <= START <= END <= lines) come later, as
 * `range_invalid`, exactly as for a token in a document.
 */
export function lineNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) return Number(value);
  return null;
}

export function parseCiteRequest(args: RawArgs): CiteRequest | null {
  if (!onlyKeys(args, ['root', 'path', 'start_line', 'end_line'])) return null;
  const r = root(args['root']);
  const path = args['path'];
  const startLine = lineNumber(args['start_line']);
  const endLine = lineNumber(args['end_line']);
  if (r === null || typeof path !== 'string' || startLine === null || endLine === null) return null;
  return { root: r, path, startLine, endLine };
}

export function parseClaimRequest(args: RawArgs): ClaimRequest | null {
  if (!onlyKeys(args, ['root', 'kind', 'path'])) return null;
  const r = root(args['root']);
  const kind = args['kind'];
  const path = args['path'];
  if (r === null || !isStructureKind(kind) || typeof path !== 'string') return null;
  return { root: r, kind, path };
}

/** Exactly one of `in_path` and `text` (null counts as absent); neither or both is invalid. */
export function parseVerifyRequest(args: RawArgs): VerifyRequest | null {
  if (!onlyKeys(args, ['root', 'in_path', 'text'])) return null;
  const r = root(args['root']);
  const inPath = args['in_path'] ?? undefined;
  const text = args['text'] ?? undefined;
  if (r === null) return null;
  if (typeof inPath === 'string' && text === undefined) return { root: r, inPath };
  if (typeof text === 'string' && inPath === undefined) return { root: r, text };
  return null;
}
