// The only serializer: every byte of JSON this project prints or writes comes from here.
// Three shapes: `compact` and `pretty` keep object keys in insertion (= spec) order, the way
// the reference's serde structs print; `canonical` sorts keys by UTF-8 byte order (MCP
// protocol objects, via fast-json-stable-stringify with a byte-order comparator).
// Numbers print losslessly (integers as digits, doubles in ECMAScript's shortest form);
// `F32` marks a binary32 value, printed as Rust's ryu prints it (selection scores).

import stableStringify from 'fast-json-stable-stringify';
import { formatF32 } from './f32.js';

/** A binary32 value; printed as the shortest decimal that round-trips in binary32. */
export class F32 {
  readonly value: number;
  constructor(value: number) {
    this.value = Math.fround(value);
  }
}

export type Json =
  | null
  | boolean
  | number
  | string
  | F32
  | readonly Json[]
  | { readonly [key: string]: Json | undefined };

/** Byte-order comparison of two strings as their UTF-8 encodings would compare. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // UTF-16 order differs from code-point (= UTF-8 byte) order only where a surrogate
      // meets U+E000..U+FFFF: surrogates encode code points above U+FFFF, so move them up.
      if (x >= 0xd800 && y >= 0xd800) {
        x = x < 0xe000 ? x + 0x2000 : x - 0x800;
        y = y < 0xe000 ? y + 0x2000 : y - 0x800;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** A UTF-16 surrogate: where UTF-16 code unit order and UTF-8 byte order can differ. */
export const SURROGATE = /[\ud800-\udfff]/;

/**
 * Sorts strings in place by UTF-8 byte order (compareBytes). Without surrogates (characters
 * above U+FFFF) UTF-16 code unit order is that order, so the engine's native sort does it,
 * several times faster than a JavaScript comparator over 10,000 paths; otherwise
 * compareBytes decides.
 */
export function sortByBytes(strings: string[]): string[] {
  return strings.some((s) => SURROGATE.test(s)) ? strings.sort(compareBytes) : strings.sort();
}

function writeString(s: string): string {
  // JSON.stringify's string escaping is exactly serde_json's: \" \\ \b \f \n \r \t, other
  // controls as \u00xx (lowercase hex), everything else literal; lone surrogates as \udxxx.
  return JSON.stringify(s);
}

function writeNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError('json: non-finite numbers cannot be serialized');
  if (Object.is(n, -0)) return '0';
  if (!Number.isInteger(n)) {
    // A double (e.g. a number read from a user's YAML): ECMAScript's shortest round-trip
    // form, lossless. Scores never come here: they are F32 values, printed as Rust does.
    return String(n);
  }
  return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
}

function write(value: Json, indent: string | null, depth: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return writeNumber(value);
    case 'string':
      return writeString(value);
    default:
      break;
  }
  if (value instanceof F32) return formatF32(value.value);
  const inner = indent === null ? '' : depth + indent;
  const open = indent === null ? '' : '\n' + inner;
  const sep = indent === null ? ',' : ',\n' + inner;
  const close = indent === null ? '' : '\n' + depth;
  const colon = indent === null ? ':' : ': ';
  if (Array.isArray(value)) {
    const items = value as readonly Json[];
    if (items.length === 0) return '[]';
    const parts = items.map((item) => write(item, indent, inner));
    return '[' + open + parts.join(sep) + close + ']';
  }
  const obj = value as { readonly [key: string]: Json | undefined };
  const parts: string[] = [];
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined) continue;
    parts.push(writeString(key) + colon + write(v, indent, inner));
  }
  if (parts.length === 0) return '{}';
  return '{' + open + parts.join(sep) + close + '}';
}

/** One JSON string literal (for writers that assemble large, flat texts themselves). */
export function jsonString(s: string): string {
  return writeString(s);
}

/** Compact JSON, keys in insertion order (serde_json::to_string of a struct). */
export function compact(value: Json): string {
  return write(value, null, '');
}

/** Pretty JSON, two-space indent, keys in insertion order (serde_json::to_string_pretty). */
export function pretty(value: Json): string {
  return write(value, '  ', '');
}

/** JSON without F32 values, whose numbers are finite and at most 2^53 - 1 in magnitude. */
export type PlainJson =
  | null
  | boolean
  | number
  | string
  | readonly PlainJson[]
  | { readonly [key: string]: PlainJson | undefined };

/**
 * pretty(value), byte for byte, at native speed, for plain values (a manifest of 10,000
 * documents, rewritten on every rebuild). There JSON.stringify with a two-space indent
 * writes what write() does: the same string escaping, numbers in ECMAScript's shortest
 * form (-0 as 0), `[]` and `{}` when empty, `"key": value`, undefined members left out.
 * It differs only outside PlainJson (F32, non-finite numbers, integers beyond 2^53 - 1,
 * which write() prints digit for digit), which callers never pass; spec-tests/core/json.test.ts checks the equality on random values.
 */
export function prettyPlain(value: PlainJson): string {
  return JSON.stringify(value, null, 2);
}

/** compact(value), byte for byte, at native speed, for plain values (as prettyPlain). */
export function compactPlain(value: PlainJson): string {
  return JSON.stringify(value);
}

const byKeyBytes = (a: { key: string }, b: { key: string }): number => compareBytes(a.key, b.key);
// The package's typings omit the options argument its code takes ({ cmp }).
const stringifyWith = stableStringify as unknown as (
  value: unknown,
  opts: { cmp: typeof byKeyBytes },
) => string | undefined;

/** Compact JSON with every object's keys sorted by UTF-8 byte order (protocol objects). */
export function canonical(value: unknown): string {
  const out = stringifyWith(value, { cmp: byKeyBytes });
  if (out === undefined) throw new TypeError('json: value is not serializable');
  return out;
}

/** Parses JSON text; the one place input JSON is decoded, so errors are uniform. */
export function parseJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}
