// Building blocks of the tools' output schemas (JSON Schema, the keywords draft-07 and
// 2020-12 share: type (a name or a list), properties, required, additionalProperties,
// items, enum, const, minimum, pattern, oneOf). Every schema names each key its answer can carry; closed shapes
// say additionalProperties: false, while the resolve answer stays open for documented additions.

import { ERROR_TABLE, type ErrorCode } from '../../errors.js';
import type { Json } from '../../json.js';
import type { JsonSchema } from '../tool.js';

export const STRING = { type: 'string' } as const;
export const BOOLEAN = { type: 'boolean' } as const;
export const COUNT = { type: 'integer', minimum: 0 } as const;

export const stringEnum = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
/** A value of `type`, or null. */
export const orNull = (type: 'string' | 'boolean'): JsonSchema => ({ type: [type, 'null'] });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/**
 * An object schema: `required` keys always present, `optional` ones sometimes; no other
 * key unless `open` (an answer that may gain documented fields).
 */
export function objectOf(required: Readonly<Record<string, Json>>, optional: Readonly<Record<string, Json>> = {}, open = false): JsonSchema {
  const schema: Record<string, Json> = {
    type: 'object',
    properties: { ...required, ...optional },
    required: Object.keys(required),
  };
  if (!open) schema['additionalProperties'] = false;
  return schema;
}

const CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** `{"error":{"code":C,"message":M}}`: seed 001's error object, any of the six codes. */
export const CONTEXT_ERROR: JsonSchema = objectOf({
  error: objectOf({ code: stringEnum(CODES), message: stringEnum(CODES.map((c) => ERROR_TABLE[c].message)) }),
});

/**
 * A tool's outputSchema: an object matching exactly one of `shapes`. The engine's error
 * object is always among them — any tool's failure that escapes its own shapes becomes one.
 */
export function outputSchema(...shapes: JsonSchema[]): { readonly type: 'object' } & JsonSchema {
  return { type: 'object', oneOf: [...shapes, CONTEXT_ERROR] };
}

/** As outputSchema, with the tool's own error shape in place of the canonical one. */
export function outputSchemaWithError(error: JsonSchema, ...shapes: JsonSchema[]): { readonly type: 'object' } & JsonSchema {
  return { type: 'object', oneOf: [...shapes, error] };
}

/** Annotations of a tool that only reads: the same call, the same answer, no side effect. */
export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * What an engine v1 cache holds, as context.list_caches and context.inspect_cache add it
 * after the seed's fields (issue 46 item 4): optional keys, so a v0 cache's answer, the
 * seed's alone, matches the same shape.
 */
export const V1_HELD: Readonly<Record<string, Json>> = {
  engine: { type: 'string', const: 'v1' },
  label: orNull('string'),
  granularity: stringEnum(['file', 'section']),
  tokenizer: STRING,
  // Documents per format ({"md":12,"rst":3}).
  formats: { type: 'object', additionalProperties: COUNT },
};
