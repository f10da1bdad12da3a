// One MCP connection, in one of two eras. The handshake era (2024-11-05 … 2025-11-25): the
// lifecycle (initialize, version negotiation, ping, the pre-initialize gate), tools and
// resources, and its one request of its own, `roots/list`, when the client declared roots.
// The stateless era (2026-07-28): no handshake; each request carries its version and
// capabilities in `_meta` (envelope.ts), `server/discover` describes the server, every result
// carries `resultType` and the server's identity, lists and reads carry caching hints, and the
// server sends no request of its own. Eras on one stream (docs/mcp.md "Two eras on one
// stream"): the connection starts open; `initialize` pins it to the handshake era, any
// request with a valid envelope except `server/discover` pins it to the stateless era, and a
// request of the other era is then refused with a clear error. `server/discover` pins
// nothing, so a client that probes and then sends `initialize` is served.
// Every thrown error becomes a reply in exactly one place (`answer`); notifications and client
// responses never get one. The session never exits on bad input.
//
// Requests are taken in arrival order, and most are answered before the next is looked at.
// A tools/call or resources/* request that is slow goes to the background instead (the
// transport's `detach`): a resolve that has used SLOW_CPU_MS of CPU on its tool worker
// (tool-pool.ts), a build running SLOW_BUILD_MS, or any call that has to wait behind one
// already in the background. The requests after it are then served meanwhile, and its reply
// goes out when it is ready (ids match replies to requests). Ordering that matters is kept:
// a call that writes (a build) starts only once every earlier call has finished, and every
// call starts only once every earlier writing call has finished; calls on one cache run in
// order (tool-pool.ts). At most MAX_IN_FLIGHT such requests are in flight; past that, one
// is answered BUSY at once.

import { JSONRPC_ERRORS } from '../errors.js';
import { parseJson } from '../json.js';
import { VERSION } from '../version.js';
import {
  classify,
  errorLine,
  isPlainObject,
  PARSE_ERROR_LINE,
  requestLine,
  resultLine,
  RpcError,
  SerializedResult,
  serializedResultLine,
  type Incoming,
  type RequestId,
} from './json-rpc.js';
import type { LineItem } from './line-splitter.js';
import {
  acceptsBatches,
  MODERN_PROTOCOL_VERSIONS,
  negotiateVersion,
  type AnyProtocolVersion,
  type ProtocolVersion,
} from './protocol-version.js';
import { claimsModernEra, readEnvelope, unsupportedVersion } from './envelope.js';
import { listResources, readResource, resourceTemplates, RESOURCE_CACHE_SCOPE, RESOURCE_TTL_MS, type ResourceEra } from './resources.js';
import type { Tool, ToolContext } from './tool.js';
import { completeResult, SERVER_NAME, toolCallResult } from './tool-call.js';
import type { ToolPool } from './tool-pool.js';
import { Cancellations } from './cancellation.js';
import { progressSink, progressTokenOf } from './progress-notifier.js';
import type { LineSender } from './stdio-transport.js';
import { underscoreName, type ToolNameStyle } from './tool-names.js';
import { toolListing } from './tool-wire.js';
import { cacheProperty, listsChanges, propertyKey, readCatalogue } from './cache-choice.js';

export { SERVER_NAME } from './tool-call.js';

/** A build still running this long (ms) lets the requests after it be served (a resolve: tool-pool.ts's SLOW_CPU_MS). */
export const SLOW_BUILD_MS = 50;

/** Requests (tools/call, resources/*) in flight at most; past that, BUSY at once. */
export const MAX_IN_FLIGHT = 32;

/** The JSON-RPC error past MAX_IN_FLIGHT (a server error code: JSON-RPC leaves -32000…-32099 to servers). */
export const BUSY = {
  code: -32010,
  message: `Server busy: ${MAX_IN_FLIGHT} requests are in flight; send this one again once one of them is answered`,
} as const;

export interface SessionOptions {
  readonly tools: readonly Tool[];
  readonly context: ToolContext;
  readonly toolNames: ToolNameStyle;
  /** Diagnostics (stderr). */
  readonly log: (text: string) => void;
  /** Worker threads for the tools that may leave this thread (context.resolve); absent: every tool runs here. */
  readonly pool?: ToolPool;
}

/** What one input line's handling may use: progress lines, going to the background, our own requests. */
interface LineTurn {
  readonly send: LineSender | undefined;
  /** Lets the transport serve the next lines while this one finishes (idempotent). */
  readonly detach: () => void;
  /** Requests of our own (roots/list) to send after this line's reply. */
  readonly outbox: string[];
}

/** Resolves once `signal` aborts (never rejects). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Thrown for a call cancelled while it waited its turn: it gets no reply (answer drops it). */
const cancelledWhileWaiting = (): RpcError => new RpcError(JSONRPC_ERRORS.internalError, 'cancelled');

const BLANK = /^[ \t\r]*$/;

const notInitialized = (): RpcError => new RpcError(JSONRPC_ERRORS.invalidRequest, 'Server not initialized');

/** Where a connection stands: no era chosen yet, or pinned to one. */
type Era = 'open' | 'handshake' | 'stateless';

/** The tools after whose call the cache root is looked at again for notifications/tools/list_changed. */
const SEES_CACHES: ReadonlySet<string> = new Set(['context.build', 'context.list_caches']);

const TOOLS_LIST_CHANGED = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';

/**
 * Caching hints (2026-07-28 "Caching"): the tool list and discovery change only with the
 * server's options (that era's list names no cache, cache-choice.ts).
 */
const TOOLS_TTL_MS = 3_600_000;

/** What the server tells a 2026-07-28 client in server/discover (instructions for the model). */
export const INSTRUCTIONS =
  'Documents compiled into context caches: call context.list_caches for the cache names, then context.resolve with a natural-language question and a token budget; ' +
  'each answer says why each document or section was chosen. Documents are also resources: context://CACHE/PATH reads a whole document, ' +
  'context://CACHE/PATH#SLUG one section of a section cache, as resolve returned it.';

/** A request claiming the stateless era on a connection that opened with initialize. */
function mixedIntoHandshake(version: ProtocolVersion | null): RpcError {
  return new RpcError(
    JSONRPC_ERRORS.invalidRequest,
    `Invalid Request: this connection opened with initialize (protocol ${version ?? 'unknown'}); a 2026-07-28 request (with _meta protocolVersion) needs a server process of its own`,
  );
}

export class McpSession {
  private readonly options: SessionOptions;
  private readonly byName = new Map<string, Tool>();
  private version: ProtocolVersion | null = null;
  private era: Era = 'open';
  /** The client declared `capabilities.roots` in initialize. */
  private clientHasRoots = false;
  /** Id of our roots/list request awaiting its response. */
  private pendingRoots: string | null = null;
  /** The roots changed while a request was in flight: ask again once it is answered. */
  private rootsChanged = false;
  private requestCount = 0;
  private readonly cancellations = new Cancellations();
  /** Calls (tools/call, resources/*) started and not finished: each one's end. */
  private readonly calls = new Set<Promise<void>>();
  /** Those of them that write (context.build). */
  private readonly writers = new Set<Promise<void>>();
  /** initialize declared tools.listChanged (the cache root was not v0's alone). */
  private listChanged = false;
  /** The resolve tool's cache property as the last tools/list sent it (handshake era), or null before one. */
  private advertised: string | null = null;

  constructor(options: SessionOptions) {
    this.options = options;
    for (const tool of options.tools) {
      this.byName.set(tool.name, tool);
      this.byName.set(underscoreName(tool.name), tool);
    }
  }

  /** The negotiated protocol version, once `initialize` has been answered. */
  get protocolVersion(): ProtocolVersion | null {
    return this.version;
  }

  /** Every line as it arrives, before its turn: notices cancellations of running requests. */
  peek(item: LineItem): void {
    this.cancellations.peek(item);
  }

  /**
   * One input line in; out: its reply, if any, then any request of our own (roots/list),
   * as lines joined by "\n" — or null when there is nothing to send. `send` writes
   * notifications (progress) ahead of the reply.
   */
  async handleLine(item: LineItem, send?: LineSender, detach?: () => void): Promise<string | null> {
    const reply = await this.serveLine(item, send, detach);
    return reply === null || typeof reply === 'string' ? reply : Buffer.from(reply).toString('utf8');
  }

  /**
   * handleLine for the transport: a reply made on a tool worker comes as its bytes (a large
   * answer is never turned into a string here). `detach` sends the line to the background.
   */
  async serveLine(item: LineItem, send?: LineSender, detach: () => void = () => undefined): Promise<string | Uint8Array | null> {
    const turn: LineTurn = { send, detach, outbox: [] };
    const reply = await this.replyTo(item, turn);
    if (turn.outbox.length === 0) return reply;
    const ours = turn.outbox.join('\n');
    if (reply === null) return ours;
    return typeof reply === 'string' ? `${reply}\n${ours}` : Buffer.concat([reply, Buffer.from(`\n${ours}`)]);
  }

  private async replyTo(item: LineItem, turn: LineTurn): Promise<string | Uint8Array | null> {
    if (item.kind !== 'line') return PARSE_ERROR_LINE;
    if (BLANK.test(item.text)) return null;
    let message: unknown;
    try {
      message = parseJson(item.text);
    } catch {
      return PARSE_ERROR_LINE;
    }
    if (!Array.isArray(message)) return this.handleMessage(message, false, turn);
    return this.handleBatch(message, turn);
  }

  private async handleBatch(messages: readonly unknown[], turn: LineTurn): Promise<string | null> {
    // JSON-RPC: an empty batch is one Invalid Request. MCP: batches exist only before
    // 2025-06-18, and never before initialize (which must not be batched).
    if (messages.length === 0 || this.era !== 'handshake' || this.version === null || !acceptsBatches(this.version)) {
      return errorLine(null, JSONRPC_ERRORS.invalidRequest);
    }
    const replies: string[] = [];
    for (const m of messages) {
      const reply = await this.handleMessage(m, true, turn);
      if (reply !== null) replies.push(typeof reply === 'string' ? reply : Buffer.from(reply).toString('utf8'));
    }
    return replies.length === 0 ? null : `[${replies.join(',')}]`;
  }

  private async handleMessage(message: unknown, inBatch: boolean, turn: LineTurn): Promise<string | Uint8Array | null> {
    const incoming: Incoming = classify(message);
    switch (incoming.kind) {
      case 'response':
        if (incoming.id === this.pendingRoots && this.pendingRoots !== null) {
          this.pendingRoots = null;
          if (!incoming.failed) this.options.context.roots?.setClientRoots(incoming.result);
          if (this.rootsChanged) {
            this.rootsChanged = false;
            this.requestRoots(turn);
          }
        }
        return null;
      case 'invalid':
        return errorLine(incoming.id, JSONRPC_ERRORS.invalidRequest);
      case 'notification':
        // Never answered. notifications/initialized needs no action (requests are served
        // once initialize is answered); notifications/cancelled was acted on when the line
        // arrived (peek), and is nothing more in its turn; others: ignored.
        if (incoming.method === 'notifications/initialized' || incoming.method === 'notifications/roots/list_changed') {
          this.requestRoots(turn);
        }
        return null;
      case 'request':
        return this.answer(incoming.id, incoming.method, incoming.params, inBatch, turn);
    }
  }

  private async answer(id: RequestId, method: string, params: unknown, inBatch: boolean, turn: LineTurn): Promise<string | Uint8Array | null> {
    // A tools/call can be cancelled: before it starts (never run) or while it runs (its
    // signal fires); either way it gets no reply (MCP "Cancellation").
    const signal = method === 'tools/call' ? this.cancellations.begin(id) : new AbortController().signal;
    if (signal === null) return null;
    let line: string | Uint8Array;
    try {
      if ((method === 'tools/call' || method.startsWith('resources/')) && this.calls.size >= MAX_IN_FLIGHT) throw new RpcError(BUSY);
      if (params !== undefined && !isPlainObject(params)) throw new RpcError(JSONRPC_ERRORS.invalidParams);
      const p = params ?? {};
      const stateless = this.era === 'stateless' || (this.era === 'open' && claimsModernEra(p));
      if (this.era === 'handshake' && claimsModernEra(p)) throw mixedIntoHandshake(this.version);
      const result = stateless ? await this.dispatchStateless(method, p, signal, turn) : await this.dispatch(method, p, inBatch, signal, turn);
      // A worker's result comes as bytes: no string of a large answer is made on this thread.
      line = result instanceof SerializedResult ? Buffer.concat(serializedResultLine(id, result)) : resultLine(id, result);
    } catch (err) {
      if (err instanceof RpcError) line = errorLine(id, err.body);
      else {
        this.options.log(`context mcp: ${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        line = errorLine(id, JSONRPC_ERRORS.internalError);
      }
    }
    if (method === 'tools/call' && this.cancellations.end(id)) return null;
    return line;
  }

  private async dispatch(method: string, params: Record<string, unknown>, inBatch: boolean, signal: AbortSignal, turn: LineTurn): Promise<unknown> {
    switch (method) {
      case 'initialize':
        if (inBatch) throw new RpcError(JSONRPC_ERRORS.invalidRequest, 'initialize must not be batched');
        return this.initialize(params);
      case 'ping':
        return {};
      default:
        break;
    }
    const known = method === 'tools/list' || method === 'tools/call';
    // Resources are served once initialized; before that (as before they existed) and for
    // anything unknown, among them a server/discover without an envelope: -32601 at once.
    if (this.version !== null && method.startsWith('resources/')) return this.inTurn(false, signal, turn, async () => this.resources(method, params, 'handshake'));
    if (!known) throw new RpcError(JSONRPC_ERRORS.methodNotFound);
    if (this.version === null) throw notInitialized();
    return method === 'tools/list' ? this.listTools(this.version, false) : this.callTool(params, this.version, false, signal, turn);
  }

  /**
   * A request served statelessly (2026-07-28): its envelope checked, then the method. A valid
   * envelope on anything but server/discover pins the connection to this era.
   */
  private async dispatchStateless(method: string, params: Record<string, unknown>, signal: AbortSignal, turn: LineTurn): Promise<unknown> {
    if (method === 'initialize' && !claimsModernEra(params)) {
      // A handshake after stateless requests on this connection: refused, naming what we serve
      // here (the specification asks any error to initialize to name the versions).
      const requested = params['protocolVersion'];
      const e = unsupportedVersion(typeof requested === 'string' ? requested : '');
      throw new RpcError(e.body, 'Unsupported protocol version: this connection already serves 2026-07-28 requests (no initialize); start another server process for the handshake', e.data);
    }
    const envelope = readEnvelope(params);
    if (method !== 'server/discover') this.era = 'stateless';
    const complete = completeResult;
    switch (method) {
      case 'server/discover':
        return complete({
          supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
          capabilities: { tools: {}, resources: {} },
          instructions: INSTRUCTIONS,
          ttlMs: TOOLS_TTL_MS,
          cacheScope: 'public',
        });
      case 'tools/list':
        return complete({ ...this.listTools(envelope.version, true), ttlMs: TOOLS_TTL_MS, cacheScope: 'public' });
      case 'tools/call':
        return this.callTool(params, envelope.version, true, signal, turn);
      case 'resources/list':
      case 'resources/templates/list':
      case 'resources/read':
        return complete(await this.inTurn(false, signal, turn, async () => this.resources(method, params, 'stateless')));
      case 'initialize':
        throw unsupportedVersion(typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : envelope.version);
      case 'ping':
      case 'logging/setLevel':
        throw new RpcError(JSONRPC_ERRORS.methodNotFound, `Method not found: protocol 2026-07-28 has no ${method}`);
      default:
        throw new RpcError(JSONRPC_ERRORS.methodNotFound);
    }
  }

  private resources(method: string, params: Record<string, unknown>, era: ResourceEra): Record<string, unknown> {
    const hints = era === 'stateless' ? { ttlMs: RESOURCE_TTL_MS, cacheScope: RESOURCE_CACHE_SCOPE } : {};
    switch (method) {
      case 'resources/templates/list':
        return { resourceTemplates: resourceTemplates(), ...(era === 'stateless' ? { ttlMs: TOOLS_TTL_MS, cacheScope: 'public' } : {}) };
      case 'resources/list':
        return { ...listResources(params, this.options.context, era), ...hints };
      case 'resources/read':
        return { ...readResource(params, this.options.context, era), ...hints };
      default:
        throw new RpcError(JSONRPC_ERRORS.methodNotFound);
    }
  }

  private initialize(params: Record<string, unknown>): unknown {
    if (this.version !== null) throw new RpcError(JSONRPC_ERRORS.invalidRequest, 'Server already initialized');
    const requested = params['protocolVersion'];
    if (typeof requested !== 'string') throw new RpcError(JSONRPC_ERRORS.invalidParams);
    this.version = negotiateVersion(requested);
    this.era = 'handshake';
    const capabilities = params['capabilities'];
    this.clientHasRoots = isPlainObject(capabilities) && isPlainObject(capabilities['roots']);
    // tools/list names the caches (cache-choice.ts) and says so when they change, unless the
    // root holds v0 caches alone: then it is the v0 reference server, byte for byte.
    this.listChanged = listsChanges(readCatalogue(this.options.context.cacheRoot));
    return {
      protocolVersion: this.version,
      capabilities: { tools: this.listChanged ? { listChanged: true } : {} },
      serverInfo: { name: SERVER_NAME, version: VERSION },
    };
  }

  /** Asks a roots-capable client for its roots (at most one request in flight). */
  private requestRoots(turn: LineTurn): void {
    if (!this.clientHasRoots || this.version === null || this.options.context.roots === undefined) return;
    if (this.pendingRoots !== null) {
      this.rootsChanged = true;
      return;
    }
    this.pendingRoots = `context-roots-${++this.requestCount}`;
    turn.outbox.push(requestLine(this.pendingRoots, 'roots/list'));
  }

  /**
   * Every tool, in the table's fixed order (lib/mcp/tools/index.ts). In the handshake era
   * context.resolve's cache property names the caches under the root (cache-choice.ts); a
   * stateless list is the same on every call.
   */
  private listTools(version: AnyProtocolVersion, stateless: boolean): Record<string, unknown> {
    // A host lists the tools before it calls one: the resolve worker starts meanwhile.
    this.options.pool?.warm();
    const tools = this.options.tools.map((t) => toolListing(t, this.options.toolNames, version));
    if (stateless) return { tools };
    const property = cacheProperty(readCatalogue(this.options.context.cacheRoot));
    this.advertised = propertyKey(property);
    const at = this.options.tools.findIndex((t) => t.name === 'context.resolve');
    const listing = tools[at];
    if (listing !== undefined) {
      const schema = listing['inputSchema'] as { properties: Record<string, unknown> };
      listing['inputSchema'] = { ...schema, properties: { ...schema.properties, cache: property } };
    }
    return { tools };
  }

  /**
   * After a call that may have changed the caches or seen them change (context.build,
   * context.list_caches): when the resolve tool's cache property is no longer the one the
   * last tools/list sent, notifications/tools/list_changed follows the reply (once per
   * change). Only where initialize declared listChanged, and only once the client has listed
   * the tools. No timer: a cache built by another process is noticed at the next such call.
   */
  private noticeCacheChanges(tool: Tool, turn: LineTurn): void {
    if (!this.listChanged || this.advertised === null || this.era !== 'handshake' || !SEES_CACHES.has(tool.name)) return;
    const now = propertyKey(cacheProperty(readCatalogue(this.options.context.cacheRoot)));
    if (now === this.advertised) return;
    this.advertised = now;
    turn.outbox.push(TOOLS_LIST_CHANGED);
  }

  /**
   * A tools/call's result (a stateless one completed). A tool that may leave this thread
   * (context.resolve) runs on the pool when there is one: the requests after it are served
   * once it turns out slow there, or at once when it has to wait behind running work.
   */
  private async callTool(params: Record<string, unknown>, version: AnyProtocolVersion, stateless: boolean, signal: AbortSignal, turn: LineTurn): Promise<unknown> {
    const name = params['name'];
    const args = params['arguments'] ?? {};
    if (typeof name !== 'string' || !isPlainObject(args)) throw new RpcError(JSONRPC_ERRORS.invalidParams);
    const tool = this.byName.get(name);
    if (tool === undefined) throw new RpcError(JSONRPC_ERRORS.invalidParams, `Unknown tool: ${name}`);
    const progress = progressSink(progressTokenOf(params), version, turn.send);
    const pool = this.options.pool;
    try {
      return await this.runCall(tool, args, version, stateless, signal, turn, progress, pool);
    } finally {
      this.noticeCacheChanges(tool, turn);
    }
  }

  private async runCall(
    tool: Tool,
    args: Record<string, unknown>,
    version: AnyProtocolVersion,
    stateless: boolean,
    signal: AbortSignal,
    turn: LineTurn,
    progress: ReturnType<typeof progressSink>,
    pool: ToolPool | undefined,
  ): Promise<unknown> {
    return this.inTurn(!tool.annotations.readOnlyHint, signal, turn, async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        if (tool.offThread === true && pool !== undefined) {
          const cache = args['cache'];
          const answer = await pool.run({
            key: typeof cache === 'string' ? cache : '',
            tool: tool.name,
            args,
            version,
            stateless,
            signal,
            onWait: turn.detach,
            onSlow: turn.detach,
          });
          if (answer.kind === 'cancelled') throw cancelledWhileWaiting();
          return new SerializedResult(answer.bytes);
        }
        // A build works on a thread of its own: the requests after it need not wait for it.
        if (!tool.annotations.readOnlyHint) timer = setTimeout(turn.detach, SLOW_BUILD_MS);
        const result = await toolCallResult(tool, args, this.options.context, version, { signal, progress }, this.options.log);
        return stateless ? completeResult(result) : result;
      } finally {
        clearTimeout(timer);
      }
    });
  }

  /**
   * Runs a call in its turn: one that writes once every earlier call has finished, any other
   * once every earlier writing call has; waiting behind one sends this request to the
   * background at once. A call cancelled while it waits never runs.
   */
  private async inTurn<T>(writes: boolean, signal: AbortSignal, turn: LineTurn, run: () => Promise<T>): Promise<T> {
    const before = [...(writes ? this.calls : this.writers)];
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    this.calls.add(mine);
    if (writes) this.writers.add(mine);
    try {
      if (before.length > 0) {
        turn.detach();
        await Promise.race([Promise.all(before), aborted(signal)]);
        if (signal.aborted) throw cancelledWhileWaiting();
      }
      return await run();
    } finally {
      this.calls.delete(mine);
      this.writers.delete(mine);
      finish();
    }
  }
}
