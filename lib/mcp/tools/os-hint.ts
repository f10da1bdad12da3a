// The hint of a failed call whose cause the OS reported (a full disk, a permission, a cache
// root that does not exist): what was being done, to which folder, and the next step, as
// an agent can act on it — the folder named by its role and the name the agent gave (a cache
// name, the sources relative to the project root), never a path of the machine or an OS code
// (os-cause.ts). The error object itself keeps its canonical form.

import { basename, isAbsolute, relative, sep } from 'node:path';
import { describeOsCause, type PathRole } from '../../os-cause.js';
import type { ContextError } from '../../errors.js';
import type { ToolContext } from '../tool.js';

function labelOf(path: string, role: PathRole, ctx: ToolContext): string | null {
  if (role === 'cache') return basename(path);
  if (role !== 'sources') return null;
  const rel = relative(ctx.projectRoot, path);
  if (rel === '') return '.';
  return rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel) ? null : rel.split(sep).join('/');
}

/** The sentence for an OS failure, or undefined when the error has no OS cause. */
export function osHint(err: ContextError, ctx: ToolContext): string | undefined {
  if (err.os === undefined) return undefined;
  return describeOsCause(err.os, 'mcp', (path, role) => labelOf(path, role, ctx));
}
