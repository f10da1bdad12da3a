// Checks lib/core/index/bytes.ts ("unsigned LEB128 varints, u32 and f64 fields, 4-byte
// alignment. Reads are bounds-checked: a truncated or corrupt buffer throws
// IndexFormatError instead of reading garbage").
import t from 'tap';
import fc from 'fast-check';
import { ByteReader, ByteWriter, IndexFormatError } from '../../../lib/core/index/bytes.js';

t.test('varints are unsigned LEB128: exact bytes for known values', async (t) => {
  const bytesOf = (v: number): number[] => {
    const w = new ByteWriter();
    w.varint(v);
    return Array.from(w.view8());
  };
  t.same(bytesOf(0), [0x00]);
  t.same(bytesOf(127), [0x7f]);
  t.same(bytesOf(128), [0x80, 0x01]);
  t.same(bytesOf(300), [0xac, 0x02]);
  t.same(bytesOf(0xffffffff), [0xff, 0xff, 0xff, 0xff, 0x0f]);
  t.same(bytesOf(2 ** 53 - 1), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f], 'the largest safe integer takes 8 bytes');
  t.throws(() => bytesOf(-1), RangeError, 'negative values cannot be written');
  t.throws(() => bytesOf(1.5), RangeError);
  t.throws(() => bytesOf(2 ** 53), RangeError);
});

t.test('round trip of varints, u32, f64 and alignment (property)', async (t) => {
  const item = fc.oneof(
    fc.record({ kind: fc.constant('varint' as const), v: fc.maxSafeNat() }),
    fc.record({ kind: fc.constant('u32' as const), v: fc.integer({ min: 0, max: 0xffffffff }) }),
    fc.record({ kind: fc.constant('f64' as const), v: fc.double({ noNaN: true }) }),
    fc.record({ kind: fc.constant('align' as const), v: fc.constant(0) }),
  );
  fc.assert(
    fc.property(fc.array(item, { maxLength: 50 }), (items) => {
      const w = new ByteWriter();
      for (const it of items) {
        if (it.kind === 'varint') w.varint(it.v);
        else if (it.kind === 'u32') w.u32(it.v);
        else if (it.kind === 'f64') w.f64(it.v);
        else w.align();
      }
      const bytes = w.view8().slice();
      const r = new ByteReader(bytes);
      for (const it of items) {
        if (it.kind === 'align') {
          r.align();
          if (r.pos % 4 !== 0) return false;
          continue;
        }
        const v = it.kind === 'varint' ? r.varint() : it.kind === 'u32' ? r.u32() : r.f64();
        if (!Object.is(v, it.v)) return false;
      }
      return r.pos === bytes.length;
    }),
    { numRuns: 500 },
  );
  t.pass('500 random sequences read back exactly');
});

t.test('reads past the end throw IndexFormatError, never garbage', async (t) => {
  const bytes = new Uint8Array([0x80, 0x80, 1, 2, 3]);
  t.throws(() => new ByteReader(bytes, 0, 2).varint(), IndexFormatError, 'a varint cut by the end');
  t.throws(() => new ByteReader(bytes, 2).u32(), IndexFormatError, 'u32 with 3 bytes left');
  t.throws(() => new ByteReader(bytes).f64(), IndexFormatError, 'f64 with 5 bytes left');
  t.throws(() => new ByteReader(bytes, 1).take(5), IndexFormatError);
  t.throws(() => new ByteReader(new Uint8Array(9).fill(0x80)).varint(), IndexFormatError, 'a varint over 8 bytes is refused');
  const r = new ByteReader(new Uint8Array(6), 1, 3);
  t.throws(() => r.align(), IndexFormatError, 'padding beyond the end');
  t.same(Array.from(new ByteReader(bytes, 2, 5).take(3)), [1, 2, 3], 'exactly to the end is fine');
});

t.test('ByteWriter.utf8 writes what TextEncoder writes (ASCII, non-ASCII, astral, lone surrogates; property)', async (t) => {
  const encoder = new TextEncoder();
  const piece = fc.constantFrom('a', 'Z', '0', ' ', '~', '\u007f', '\u0080', 'é', '日本', '\uFE20', '\u{10428}', '😀', '\ud800', '\udfff', '');
  fc.assert(
    fc.property(fc.array(fc.array(piece, { maxLength: 30 }).map((p) => p.join('')), { maxLength: 20 }), (strings) => {
      const w = new ByteWriter(16); // small: the buffer grows while strings are written
      for (const s of strings) w.utf8(s);
      return Buffer.from(w.view8()).equals(Buffer.concat(strings.map((s) => encoder.encode(s))));
    }),
    { numRuns: 500, seed: 24 },
  );
  t.pass('500 random runs of strings, written back to back (each alone: a lone surrogate ending one string never pairs with the next)');
});
