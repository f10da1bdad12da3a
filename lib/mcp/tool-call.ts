// One tools/call turned into its result object, the same on the server's thread and on a
// tool worker (tool-pool.ts): the tool's outcome (a thrown RpcError is the request's fault
// and propagates; any other failure becomes the engine's typed error as a tool result), the
// result's wire shape by protocol version (tool-wire.ts), and for a 2026-07-28 request the
// fields every result of that era carries.

import { errorJson, toContextError } from '../errors.js';
import { VERSION } from '../version.js';
import { SERVER_INFO_KEY } from './envelope.js';
import { RpcError } from './json-rpc.js';
import type { AnyProtocolVersion } from './protocol-version.js';
import type { Tool, ToolCall, ToolContext, ToolOutcome } from './tool.js';
import { toolResult } from './tool-wire.js';

export const SERVER_NAME = 'context-engine';

/** A 2026-07-28 result: `resultType` and the server's identity added (docs/mcp.md "Two eras on one stream"). */
export function completeResult(result: Record<string, unknown>): Record<string, unknown> {
  return { ...result, resultType: 'complete', _meta: { [SERVER_INFO_KEY]: { name: SERVER_NAME, version: VERSION } } };
}

/** Runs `tool` on `args` and returns the tools/call result for `version`. */
export async function toolCallResult(
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  version: AnyProtocolVersion,
  call: ToolCall,
  log: (text: string) => void,
): Promise<Record<string, unknown>> {
  let outcome: ToolOutcome;
  try {
    outcome = await tool.call(args, ctx, call);
  } catch (err) {
    // Arguments a tool cannot take at all are the request's fault: a protocol error.
    if (err instanceof RpcError) throw err;
    // Tools convert their own errors; anything escaping is still a typed tool failure.
    const e = toContextError(err);
    if (e.code === 'internal_error') log(`context mcp: ${tool.name} failed: ${e.detail ?? ''}\n`);
    outcome = { text: errorJson(e.code) + '\n', isError: true };
  }
  return toolResult(outcome, version);
}
