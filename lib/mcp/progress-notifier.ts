// notifications/progress for a request that carried `_meta.progressToken`: increasing
// `progress`, a `total` when known, and from 2025-03-26 on (which added it) a `message`.
// Lines go out through the transport ahead of the request's reply.

import { canonical } from '../json.js';
import { isPlainObject } from './json-rpc.js';
import type { AnyProtocolVersion } from './protocol-version.js';
import type { LineSender } from './stdio-transport.js';

export type ProgressSink = (progress: number, total: number | null, message: string) => void;

/** The request's progress token, if it asked for progress (a string or an integer). */
export function progressTokenOf(params: Readonly<Record<string, unknown>>): string | number | null {
  const meta = params['_meta'];
  if (!isPlainObject(meta)) return null;
  const token = meta['progressToken'];
  if (typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token))) return token;
  return null;
}

/** A sink that sends notifications for `token`, or null when there is no token. */
export function progressSink(token: string | number | null, version: AnyProtocolVersion, send: LineSender | undefined): ProgressSink | null {
  if (token === null || send === undefined) return null;
  let last = -Infinity;
  return (progress, total, message) => {
    if (!(progress > last)) return; // the spec: progress MUST increase with each notification
    last = progress;
    const params: Record<string, string | number> = { progressToken: token, progress };
    if (total !== null) params['total'] = total;
    if (version !== '2024-11-05') params['message'] = message;
    // The envelope in JSON-RPC's order, the params sorted like every protocol object.
    void send(`{"jsonrpc":"2.0","method":"notifications/progress","params":${canonical(params)}}`);
  };
}
