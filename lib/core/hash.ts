// SHA-256 helpers: document versions ("sha256:" + hex of the raw bytes) and cache versions.

import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** hex(sha256) of `chunks` joined, without joining them. */
export function sha256HexOf(chunks: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest('hex');
}

/** `"sha256:" + hex(sha256(bytes))` (document_model.md "Versioning"). */
export function versionOf(data: string | Uint8Array): string {
  return 'sha256:' + sha256Hex(data);
}
