// Checking one structure claim with `lstat` (a symlink is neither a file nor a directory):
// `missing` fails with `exists`, `exists` with `missing`, `exists-file` with `not_file`,
// `exists-dir` with `not_dir`; an absent path fails every `exists*` kind with `missing`.

import type { Reason, StructureKind } from './reasons.js';
import type { Workspace } from './workspace.js';

export type StructureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: Reason };

export function checkStructure(ws: Workspace, kind: StructureKind, path: string): StructureCheck {
  const resolved = ws.resolve(path);
  if (!resolved.ok) return resolved;
  const placement = ws.place(resolved.absolutePath);
  if (placement === 'escape') return { ok: false, reason: 'path_escape' };
  if (placement === 'io_error') return { ok: false, reason: 'io_error' };
  const entry = placement === 'absent' ? 'absent' : ws.kindOf(resolved.absolutePath);
  if (entry === 'io_error') return { ok: false, reason: 'io_error' };
  if (kind === 'missing') return entry === 'absent' ? { ok: true } : { ok: false, reason: 'exists' };
  if (entry === 'absent') return { ok: false, reason: 'missing' };
  switch (kind) {
    case 'exists':
      return { ok: true };
    case 'exists-file':
      return entry === 'file' ? { ok: true } : { ok: false, reason: 'not_file' };
    case 'exists-dir':
      return entry === 'dir' ? { ok: true } : { ok: false, reason: 'not_dir' };
  }
}
