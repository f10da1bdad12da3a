// JSON-RPC 2.0 framing: classifies one decoded message and renders response lines. A line is
// `{"jsonrpc":"2.0","id":ID,"result":R}` (or "error" for "result"), envelope keys in that
// order as the reference server prints them, R with every key sorted by UTF-8 bytes.
// Ids are strings or integers and are echoed with their exact type; anything else is invalid.

import { canonical, compact, type Json } from '../json.js';
import { JSONRPC_ERRORS } from '../errors.js';

export type RequestId = string | number;

export type Incoming =
  | { readonly kind: 'request'; readonly id: RequestId; readonly method: string; readonly params: unknown }
  | { readonly kind: 'notification'; readonly method: string; readonly params: unknown }
  /** A response from the client, to a request of ours (`roots/list`) or to nothing. */
  | { readonly kind: 'response'; readonly id: unknown; readonly result: unknown; readonly failed: boolean }
  /** Not a valid request object: answered with -32600 and this id. */
  | { readonly kind: 'invalid'; readonly id: RequestId | null };

export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  /** JSON-RPC's optional `data` member (2026-07-28's -32022 carries the supported versions). */
  readonly data?: Json;
}

/** A protocol-level failure of one request; dispatch turns it into an error line. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: Json | undefined;
  constructor(body: RpcErrorBody, message: string = body.message, data?: Json) {
    super(message);
    this.name = 'RpcError';
    this.code = body.code;
    this.data = data;
  }
  get body(): RpcErrorBody {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

const has = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/** Classifies one message (a non-array JSON value). */
export function classify(value: unknown): Incoming {
  if (!isPlainObject(value)) return { kind: 'invalid', id: null };
  const hasId = has(value, 'id');
  const id = hasId && validId(value['id']) ? (value['id'] as RequestId) : null;
  if (!has(value, 'method') && (has(value, 'result') || has(value, 'error'))) {
    return { kind: 'response', id: value['id'], result: value['result'], failed: has(value, 'error') };
  }
  if (value['jsonrpc'] !== '2.0' || typeof value['method'] !== 'string') return { kind: 'invalid', id };
  const method = value['method'];
  const params = value['params'];
  if (!hasId) return { kind: 'notification', method, params };
  if (id === null) return { kind: 'invalid', id: null };
  return { kind: 'request', id, method, params };
}

function envelope(id: RequestId | null, key: 'result' | 'error', body: string): string {
  return `{"jsonrpc":"2.0","id":${compact(id)},"${key}":${body}}`;
}

/** A request of the server's own to the client (`roots/list`): no params, keys in JSON-RPC order. */
export function requestLine(id: string, method: string): string {
  return `{"jsonrpc":"2.0","id":${compact(id)},"method":${compact(method)}}`;
}

/** A result serialized already, keys sorted, in UTF-8 (a tool worker's): put into the envelope as it is. */
export class SerializedResult {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

/** A success line; the result's keys are sorted (protocol object). */
export function resultLine(id: RequestId, result: unknown): string {
  return envelope(id, 'result', canonical(result));
}

/** The line of a result serialized already: the envelope around its bytes (resultLine's bytes for the same result). */
export function serializedResultLine(id: RequestId, result: SerializedResult): Uint8Array[] {
  const encoder = new TextEncoder();
  return [encoder.encode(`{"jsonrpc":"2.0","id":${compact(id)},"result":`), result.bytes, encoder.encode('}')];
}

/** An error line: `{"code":C,"message":M}` (and `data` when given) with the request's id (null when unknown). */
export function errorLine(id: RequestId | null, error: RpcErrorBody): string {
  const body: Record<string, Json> = { code: error.code, message: error.message };
  if (error.data !== undefined) body['data'] = error.data;
  return envelope(id, 'error', canonical(body));
}

export const PARSE_ERROR_LINE = errorLine(null, JSONRPC_ERRORS.parseError);
