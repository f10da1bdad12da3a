// Which tools/call requests the client has cancelled (notifications/cancelled). Lines are
// peeked as they arrive, before they wait their turn, so a cancellation reaches a request
// that is running (its AbortSignal fires: a build stops at its next progress report) or one
// still queued (it is then never run). Either way no reply is sent, as the MCP spec asks.
// A cancellation for a request that has already been answered changes nothing.

import { compact, parseJson } from '../json.js';
import { classify, isPlainObject, type RequestId } from './json-rpc.js';
import type { LineItem } from './line-splitter.js';

/** Cancellations remembered for requests not yet started (ids are never reused in a session). */
const MAX_REMEMBERED = 1024;

const keyOf = (id: RequestId): string => compact(id); // 1 and "1" are different requests

export class Cancellations {
  private readonly running = new Map<string, AbortController>();
  private readonly early = new Set<string>();

  /** Looks at a line as it arrives; acts only on notifications/cancelled. */
  peek(item: LineItem): void {
    if (item.kind !== 'line' || !item.text.includes('notifications/cancelled')) return;
    let message: unknown;
    try {
      message = parseJson(item.text);
    } catch {
      return;
    }
    const incoming = classify(message);
    if (incoming.kind !== 'notification' || incoming.method !== 'notifications/cancelled') return;
    const params = incoming.params;
    const id = isPlainObject(params) ? params['requestId'] : undefined;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return;
    const key = keyOf(id);
    const running = this.running.get(key);
    if (running !== undefined) {
      running.abort();
      return;
    }
    if (this.early.size >= MAX_REMEMBERED) this.early.delete(this.early.values().next().value as string);
    this.early.add(key);
  }

  /** A request starts: its signal, or null when it was cancelled before it started. */
  begin(id: RequestId): AbortSignal | null {
    const key = keyOf(id);
    if (this.early.delete(key)) return null;
    const controller = new AbortController();
    this.running.set(key, controller);
    return controller.signal;
  }

  /** A request is done; whether it was cancelled meanwhile (then it gets no reply). */
  end(id: RequestId): boolean {
    const key = keyOf(id);
    const controller = this.running.get(key);
    this.running.delete(key);
    return controller?.signal.aborted === true;
  }
}
