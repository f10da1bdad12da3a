// Little-endian byte building and reading for the binary index: unsigned LEB128 varints,
// u32 and f64 fields, 4-byte alignment. Reads are bounds-checked: a truncated or corrupt
// buffer throws IndexFormatError instead of reading garbage.

/** A structural fault in index bytes; the loader turns it into cache_invalid. */
export class IndexFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexFormatError';
  }
}

/** Whether typed arrays on this machine are little-endian (the index format is). */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const UTF8 = new TextEncoder();

/** A growable byte buffer. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  /** `capacity`: bytes to allocate up front (it grows as needed either way). */
  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(Math.max(capacity, 16));
    this.view = new DataView(this.buf.buffer);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    bigger.set(this.buf.subarray(0, this.length));
    this.buf = bigger;
    this.view = new DataView(bigger.buffer);
  }

  varint(value: number): void {
    if (value >>> 0 === value) {
      // u32 (every count and offset of the index): shifts instead of division.
      this.room(5);
      const buf = this.buf;
      let v = value;
      while (v >= 0x80) {
        buf[this.length++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[this.length++] = v;
      return;
    }
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint out of range: ${value}`);
    this.room(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }

  u32(value: number): void {
    this.room(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
  }

  f64(value: number): void {
    this.room(8);
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
  }

  bytes(data: Uint8Array): void {
    this.room(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  /** The UTF-8 bytes of `s` (as TextEncoder writes them; ASCII byte by byte). */
  utf8(s: string): void {
    const n = s.length;
    this.room(n * 3); // a UTF-16 code unit is at most 3 bytes of UTF-8
    const buf = this.buf;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.length += UTF8.encodeInto(s, buf.subarray(this.length)).written;
        return;
      }
      buf[at++] = c;
    }
    this.length = at;
  }

  /** Each value of `values` as a little-endian u32 (a block copy on a little-endian host). */
  u32s(values: Uint32Array): void {
    if (LITTLE_ENDIAN_HOST) {
      this.bytes(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      return;
    }
    for (let k = 0; k < values.length; k++) this.u32(values[k] as number);
  }

  /** src[start, end): a byte loop for the few bytes of a posting, a block copy otherwise. */
  range(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.room(n);
    if (n > 32) this.buf.set(src.subarray(start, end), this.length);
    else {
      const buf = this.buf;
      let at = this.length;
      for (let i = start; i < end; i++) buf[at++] = src[i] as number;
    }
    this.length += n;
  }

  /** Zero bytes up to the next multiple of 4. */
  align(): void {
    while (this.length % 4 !== 0) {
      this.room(1);
      this.buf[this.length++] = 0;
    }
  }

  /** The bytes written so far (a view: copy before writing more). */
  view8(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** A bounds-checked cursor over bytes. */
export class ByteReader {
  readonly bytes: Uint8Array;
  private readonly dv: DataView;
  pos: number;
  readonly end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new IndexFormatError('index is truncated');
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let k = 0; k < 8; k++) {
      this.need(1);
      const b = this.bytes[this.pos++] as number;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
    throw new IndexFormatError('varint is too long');
  }

  u32(): number {
    this.need(4);
    const v = this.dv.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.dv.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  take(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  align(): void {
    const pad = (4 - (this.pos % 4)) % 4;
    this.need(pad);
    this.pos += pad;
  }
}
