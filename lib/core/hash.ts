// SHA-256 helpers: document versions ("sha256:" + hex of the raw bytes) and cache versions.

import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `"sha256:" + hex(sha256(bytes))` (document_model.md "Versioning"). */
export function versionOf(data: string | Uint8Array): string {
  return 'sha256:' + sha256Hex(data);
}
