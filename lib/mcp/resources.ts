// Documents as MCP resources, in both eras. A unit is named `context://CACHE/PATH` (a whole
// document: the path resolve prints, v0's lowercased id or v1's path) or
// `context://CACHE/PATH#SLUG` (one section of a v1 section cache; `#` with an empty slug is
// the part before the first heading). Cache, path segments and slug are percent-encoded
// (UTF-8), so the URI of a resolve entry is `context://` + cache + `/` + its id, encoded.
// resources/read returns the cache's exact text for that unit, through the same engine as
// resolve; resources/list pages through every cache's documents (caches by name, documents
// by path, both in byte order) with an opaque cursor, PAGE_SIZE documents a message; a page
// reads one document past what it sends, so nextCursor is there only when more may follow.

import { documentsPage, documentText, locateCache } from '../core/operations/api.js';
import { listCaches } from '../core/operations/list.js';
import { sha256Hex } from '../core/hash.js';
import { UNIT_URI_SCHEME, unitUri } from '../core/unit-uri.js';
import { ContextError, ERROR_TABLE, JSONRPC_ERRORS, MCP_ERRORS } from '../errors.js';
import { compact, compareBytes, parseJson } from '../json.js';
import { isPlainObject, RpcError } from './json-rpc.js';
import type { ToolContext } from './tool.js';

export type ResourceEra = 'handshake' | 'stateless';

/** Documents per resources/list page. */
export const PAGE_SIZE = 100;
/** 2026-07-28 caching hints: a cache can be rebuilt under the same name at any moment. */
export const RESOURCE_TTL_MS = 0;
/** The documents are the user's own files. */
export const RESOURCE_CACHE_SCOPE = 'private';

const SCHEME = UNIT_URI_SCHEME;
const MIME = 'text/markdown';

export { unitUri };

/** A URI taken apart, or null when it is not one of ours. */
export function parseUnitUri(uri: string): { cache: string; path: string; slug: string | null } | null {
  if (!uri.startsWith(SCHEME)) return null;
  const rest = uri.slice(SCHEME.length);
  const hash = rest.indexOf('#');
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash);
  const slash = beforeHash.indexOf('/');
  if (slash <= 0 || slash === beforeHash.length - 1) return null;
  try {
    return {
      cache: decodeURIComponent(beforeHash.slice(0, slash)),
      path: decodeURIComponent(beforeHash.slice(slash + 1)),
      slug: hash < 0 ? null : decodeURIComponent(rest.slice(hash + 1)),
    };
  } catch {
    return null; // malformed percent-encoding
  }
}

export function resourceTemplates(): Record<string, unknown>[] {
  return [
    {
      uriTemplate: `${SCHEME}{cache}/{+path}`,
      name: 'document',
      title: 'A document of a context cache',
      description:
        'The whole text of one document, exactly as the cache holds it. cache: a name from context.list_caches; path: a document path as context.resolve returns it (its id without #…).',
      mimeType: MIME,
    },
    {
      uriTemplate: `${SCHEME}{cache}/{+path}{#slug}`,
      name: 'section',
      title: 'A section of a document (section caches)',
      description:
        'One section of a document in a cache built with sections, exactly as context.resolve returns it: its id is path#slug.',
      mimeType: MIME,
    },
  ];
}

const invalidParams = (why: string): RpcError => new RpcError(JSONRPC_ERRORS.invalidParams, `Invalid params: ${why}`);

function notFound(uri: string, why: string, era: ResourceEra): RpcError {
  const body = era === 'stateless' ? JSONRPC_ERRORS.invalidParams : MCP_ERRORS.resourceNotFound;
  return new RpcError(body, `Resource not found: ${why}`, { uri });
}

/** A failure reading a cache that exists: an internal error naming the engine's code. */
function cacheFailure(err: ContextError): RpcError {
  return new RpcError(JSONRPC_ERRORS.internalError, `Internal error: ${err.code}: ${ERROR_TABLE[err.code].message}`);
}

interface Cursor {
  readonly cache: string;
  readonly after: string;
}

/**
 * The check a cursor carries: 16 hex digits of the sha256 of what it says. A checksum, not a
 * secret (the same on every run and machine, so recorded cursors replay): it makes a cursor
 * the server did not give — made up, edited, cut short — a refusal rather than a page from
 * wherever it points. It authenticates nothing, and needs not: a cursor only says where to
 * resume listing documents the client may list anyway.
 */
function cursorCheck(cache: string, after: string): string {
  return sha256Hex(`context-engine resources/list cursor 1\0${cache}\0${after}`).slice(0, 16);
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(compact({ cache: c.cache, after: c.after, check: cursorCheck(c.cache, c.after) }), 'utf8').toString('base64url');
}

function decodeCursor(value: unknown): Cursor | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw invalidParams('cursor must be a string from nextCursor');
  try {
    const v = parseJson(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      isPlainObject(v) &&
      Object.keys(v).length === 3 &&
      typeof v['cache'] === 'string' &&
      typeof v['after'] === 'string' &&
      v['check'] === cursorCheck(v['cache'], v['after']) &&
      encodeCursor({ cache: v['cache'], after: v['after'] }) === value
    ) {
      return { cache: v['cache'], after: v['after'] };
    }
  } catch {
    // falls through
  }
  throw invalidParams('cursor is not one this server gave (use nextCursor as given, or start without one)');
}

/** resources/list: the next page of documents, every cache in name order. */
export function listResources(params: Readonly<Record<string, unknown>>, ctx: ToolContext, _era: ResourceEra): Record<string, unknown> {
  const cursor = decodeCursor(params['cursor']);
  let names: string[];
  try {
    names = listCaches(ctx.cacheRoot).map((c) => c.path);
  } catch {
    names = []; // no cache root yet: nothing to list
  }
  const resources: Record<string, unknown>[] = [];
  let last: Cursor | null = null;
  // Whether anything may follow this page: more documents in its last cache, or caches after it.
  let more = false;
  const todo = names.filter((name) => cursor === null || compareBytes(name, cursor.cache) >= 0);
  for (let k = 0; k < todo.length; k++) {
    const name = todo[k] as string;
    const room = PAGE_SIZE - resources.length;
    if (room === 0) {
      more = true;
      break;
    }
    const after = cursor !== null && name === cursor.cache ? cursor.after : null;
    let page: ReturnType<typeof documentsPage>;
    try {
      // One more than fits: tells whether this cache goes on past the page.
      page = documentsPage(locateCache(ctx.cacheRoot, name), after, room + 1, ctx.memo);
    } catch (err) {
      if (err instanceof ContextError) continue; // a cache that does not load has nothing to read: skipped
      throw err;
    }
    for (const d of page.documents.slice(0, room)) {
      resources.push({ uri: unitUri(name, d.path, null), name: d.path, mimeType: MIME, size: d.bytes });
      last = { cache: name, after: d.path };
    }
    if (page.documents.length > room) {
      more = true;
      break;
    }
  }
  const result: Record<string, unknown> = { resources };
  if (more && last !== null) result['nextCursor'] = encodeCursor(last);
  return result;
}

/** resources/read: the exact text of one unit. */
export function readResource(params: Readonly<Record<string, unknown>>, ctx: ToolContext, era: ResourceEra): Record<string, unknown> {
  const uri = params['uri'];
  if (typeof uri !== 'string') throw invalidParams('uri must be a string such as context://CACHE/PATH');
  const parts = parseUnitUri(uri);
  if (parts === null) throw notFound(uri, 'a resource URI is context://CACHE/PATH or context://CACHE/PATH#SLUG', era);
  let dir: string;
  try {
    dir = locateCache(ctx.cacheRoot, parts.cache);
  } catch (err) {
    if (err instanceof ContextError && err.code === 'cache_missing') throw notFound(uri, 'no cache of that name (see context.list_caches)', era);
    throw err;
  }
  let text: string | null;
  try {
    text = documentText(dir, parts.path, parts.slug, ctx.memo);
  } catch (err) {
    if (!(err instanceof ContextError)) throw err;
    if (err.code === 'cache_missing') throw notFound(uri, 'no cache of that name (see context.list_caches)', era);
    throw cacheFailure(err);
  }
  if (text === null) {
    throw notFound(uri, parts.slug === null ? 'the cache has no document at that path' : 'the cache has no such section (section caches only; the slug as resolve returned it)', era);
  }
  return { contents: [{ uri, mimeType: MIME, text }] };
}
