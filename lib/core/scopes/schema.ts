// The `.context.yaml` schema v1 (dotcontext's published JSON Schema), checked strictly:
// required keys, exact types, no unknown keys at any level. A valid value comes back as a
// fresh copy with every object's keys in schema order, so output never depends on the file.

import type { Json } from '../../json.js';

/** The one schema version this engine reads and writes. */
export const SCHEMA_VERSION = 1;

type Spec =
  | { readonly kind: 'string' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'integer' }
  | { readonly kind: 'number'; readonly min: number; readonly max: number }
  | { readonly kind: 'version' }
  | { readonly kind: 'array'; readonly items: Spec }
  | { readonly kind: 'object'; readonly fields: readonly Field[] };

interface Field {
  readonly name: string;
  readonly spec: Spec;
  readonly required: boolean;
}

const str: Spec = { kind: 'string' };
const strings: Spec = { kind: 'array', items: str };
const req = (name: string, spec: Spec): Field => ({ name, spec, required: true });
const opt = (name: string, spec: Spec): Field => ({ name, spec, required: false });
const object = (...fields: Field[]): Spec => ({ kind: 'object', fields });
const listOf = (...fields: Field[]): Spec => ({ kind: 'array', items: object(...fields) });
const status: Spec = { kind: 'enum', values: ['clean', 'errors', 'unknown'] };

// Field order is the schema's (and dotcontext's zod schema's) declaration order.
const CONTEXT_SPEC: readonly Field[] = [
  req('version', { kind: 'version' }),
  req('last_updated', str),
  req('fingerprint', str),
  req('scope', str),
  req('summary', str),
  opt('files', listOf(req('name', str), req('purpose', str), opt('test_file', str))),
  req('maintenance', str),
  opt('interfaces', listOf(req('name', str), req('description', str))),
  opt('decisions', listOf(req('what', str), req('why', str), opt('tradeoff', str))),
  opt('constraints', strings),
  opt('dependencies', object(opt('internal', strings), opt('external', strings))),
  opt('current_state', object(opt('working', strings), opt('broken', strings), opt('in_progress', strings))),
  opt('subdirectories', listOf(req('name', str), req('summary', str))),
  opt('environment', strings),
  opt('testing', strings),
  opt('todos', strings),
  opt('data_models', strings),
  opt('events', strings),
  opt('config', strings),
  opt('exports', strings),
  opt(
    'project',
    object(req('name', str), req('description', str), req('language', str), opt('framework', str), opt('package_manager', str)),
  ),
  opt('structure', listOf(req('path', str), req('summary', str))),
  opt('derived_fields', strings),
  opt(
    'evidence',
    object(
      req('collected_at', str),
      opt('commit_sha', str),
      opt('test_status', { kind: 'enum', values: ['passing', 'failing', 'unknown'] }),
      opt('test_count', { kind: 'integer' }),
      opt('failing_tests', strings),
      opt('test_tool', str),
      opt('typecheck', status),
      opt('typecheck_tool', str),
      opt('lint_status', status),
      opt('lint_tool', str),
      opt('coverage_percent', { kind: 'number', min: 0, max: 100 }),
    ),
  ),
];

/** Fields a `filter` may ask for (seed 003); anything else in a filter is ignored. */
export const FILTERABLE_FIELDS: readonly string[] = [
  'summary', 'files', 'interfaces', 'decisions', 'constraints', 'dependencies', 'current_state',
  'subdirectories', 'environment', 'testing', 'todos', 'data_models', 'events', 'config',
  'project', 'structure', 'maintenance', 'exports',
];

/** Fields every query answer carries first, in this order (seed 003 examples). */
export const METADATA_FIELDS: readonly string[] = ['version', 'scope', 'fingerprint', 'last_updated'];

/** The top-level keys in schema order. */
export const CONTEXT_FIELDS: readonly string[] = CONTEXT_SPEC.map((f) => f.name);

/** A schema-valid context: plain JSON values, keys in schema order. */
export type ContextData = { readonly [key: string]: Json };

const INVALID = Symbol('invalid');

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A number for output: json.ts prints integers and doubles losslessly. */
function numberJson(n: number): Json {
  return n;
}

function check(value: unknown, spec: Spec): Json | typeof INVALID {
  switch (spec.kind) {
    case 'string':
      return typeof value === 'string' ? value : INVALID;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : INVALID;
    case 'version':
      return value === SCHEMA_VERSION ? SCHEMA_VERSION : INVALID;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : INVALID;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value >= spec.min && value <= spec.max
        ? numberJson(value)
        : INVALID;
    case 'array': {
      if (!Array.isArray(value)) return INVALID;
      const out: Json[] = [];
      for (const item of value as unknown[]) {
        const v = check(item, spec.items);
        if (v === INVALID) return INVALID;
        out.push(v);
      }
      return out;
    }
    case 'object':
      return checkObject(value, spec.fields);
  }
}

function checkObject(value: unknown, fields: readonly Field[]): { [key: string]: Json } | typeof INVALID {
  if (!isPlainObject(value)) return INVALID;
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(value)) if (!known.has(key)) return INVALID;
  const out: { [key: string]: Json } = {};
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(value, field.name) || value[field.name] === undefined) {
      if (field.required) return INVALID;
      continue;
    }
    const v = check(value[field.name], field.spec);
    if (v === INVALID) return INVALID;
    out[field.name] = v;
  }
  return out;
}

export type SchemaVerdict =
  | { readonly kind: 'valid'; readonly context: ContextData }
  | { readonly kind: 'unsupported'; readonly version: number }
  | { readonly kind: 'invalid' };

/**
 * Classifies a parsed YAML value. A numeric `version` above 1 is "unsupported" (a newer
 * dotcontext wrote it) whatever else the file holds; any other violation is "invalid".
 */
export function classifyContext(value: unknown): SchemaVerdict {
  if (isPlainObject(value)) {
    const version = value['version'];
    if (typeof version === 'number' && version > SCHEMA_VERSION) return { kind: 'unsupported', version };
  }
  const context = checkObject(value, CONTEXT_SPEC);
  return context === INVALID ? { kind: 'invalid' } : { kind: 'valid', context };
}
