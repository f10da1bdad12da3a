// Which directories the MCP server's workspace tools (citations, scopes) may touch: the
// project root (`--project-root`, default the working directory) until the client answers
// `roots/list`; then the client's file:// roots. Relative `root` and `path` arguments are
// taken from the project root, or, when the client's roots do not hold it, from the
// client's first root. Anything else is refused before it is read — whatever it names.

import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { isWithinRoots } from '../core/confine.js';

export class RootPolicy {
  private readonly projectRoot: string;
  private clientRoots: string[] | null = null;

  constructor(projectRoot: string) {
    this.projectRoot = projectRoot;
  }

  /** The directories arguments may name (absolute). */
  get allowed(): readonly string[] {
    return this.clientRoots ?? [this.projectRoot];
  }

  /** Where relative arguments are resolved, and the root when a tool's `path` is omitted. */
  get base(): string {
    const roots = this.clientRoots;
    if (roots === null || isWithinRoots(this.projectRoot, roots)) return this.projectRoot;
    return roots[0] as string;
  }

  /**
   * Takes the client's roots (MCP `roots/list` result): each `file://` URI that names an
   * absolute path. An empty or unusable list keeps the project root (documented).
   */
  setClientRoots(result: unknown): void {
    const list = (result as { roots?: unknown } | null)?.roots;
    if (!Array.isArray(list)) return;
    const dirs: string[] = [];
    for (const root of list) {
      const uri = (root as { uri?: unknown } | null)?.uri;
      if (typeof uri !== 'string' || !uri.startsWith('file://')) continue;
      try {
        dirs.push(fileURLToPath(uri));
      } catch {
        // Not a local path (a host in the URI, bad escapes): offers nothing here.
      }
    }
    this.clientRoots = dirs.length === 0 ? null : dirs;
  }

  /**
   * The absolute directory a tool's root argument names (relative to `base`; `\` read as
   * a separator so `..\..` is traversal too), or null when it lies outside every allowed
   * root, holds a NUL byte, or cannot be resolved.
   */
  confine(value: string): string | null {
    if (value.includes('\0')) return null;
    // Both readings must stay inside: the core takes `\` literally, scopes as a separator.
    const literal = resolve(this.base, value);
    const separated = resolve(this.base, value.replaceAll('\\', '/'));
    return isWithinRoots(literal, this.allowed) && isWithinRoots(separated, this.allowed) ? literal : null;
  }
}
