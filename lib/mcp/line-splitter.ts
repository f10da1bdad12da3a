// Splits a byte stream into MCP stdio lines: one message per line, terminated by "\n", a
// trailing "\r" dropped (CRLF). Chunks may cut a line anywhere, even inside a multi-byte
// UTF-8 character: bytes are joined before decoding. A line over the limit is dropped whole
// (memory stays bounded) and reported once; invalid UTF-8 is reported, never repaired.

export type LineItem =
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'oversize' }
  | { readonly kind: 'invalid-utf8' };

/** Largest accepted line, "\r\n" excluded (security_model.md: bound every message). */
export const MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineSplitter {
  private readonly maxBytes: number;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(maxBytes: number = MAX_LINE_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** The lines completed by this chunk, in order. */
  push(chunk: Buffer): LineItem[] {
    const items: LineItem[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.append(chunk.subarray(start));
        return items;
      }
      this.append(chunk.subarray(start, nl));
      items.push(this.finish());
      start = nl + 1;
    }
  }

  /** At end of input: the last line if it had no terminator (and was not empty). */
  end(): LineItem[] {
    if (this.size === 0 && !this.discarding) return [];
    return [this.finish()];
  }

  private append(bytes: Buffer): void {
    if (this.discarding || bytes.length === 0) return;
    // One byte of slack: the line may still turn out to end in "\r", which does not count.
    if (this.size + bytes.length > this.maxBytes + 1) {
      this.discarding = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private finish(): LineItem {
    const discarded = this.discarding;
    let line = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.discarding = false;
    if (discarded) return { kind: 'oversize' };
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > this.maxBytes) return { kind: 'oversize' };
    try {
      return { kind: 'line', text: this.decoder.decode(line) };
    } catch {
      return { kind: 'invalid-utf8' };
    }
  }
}
