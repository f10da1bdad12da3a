// SHA-256 helpers: document versions ("sha256:" + hex of the raw bytes) and cache versions;
// and FNV-1a, the 32-bit hash of in-memory tables (never written to a cache).

import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 of `data`, its 32 bytes. */
export function sha256Bytes(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** hex(sha256) of `first`, and of `first` then `rest` joined: one pass, nothing joined. */
export function sha256HexOfBoth(first: Uint8Array, rest: readonly Uint8Array[]): { first: string; all: string } {
  const h = createHash('sha256').update(first);
  const head = h.copy().digest('hex');
  for (const c of rest) h.update(c);
  return { first: head, all: h.digest('hex') };
}

/** `"sha256:" + hex(sha256(bytes))` (document_model.md "Versioning"). */
export function versionOf(data: string | Uint8Array): string {
  return 'sha256:' + sha256Hex(data);
}

/** 32-bit FNV-1a of `bytes[start .. end)` (as an int32). */
export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 16777619);
  return h;
}
