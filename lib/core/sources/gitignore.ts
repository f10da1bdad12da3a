// Gitignore semantics for directory walks, through the `ignore` package (the implementation
// eslint and many others use): one layer per ignore file, each matching paths relative to
// its own directory; deeper layers decide over shallower ones, as git does. Persistent:
// `with` returns a new stack, so a walk can hand each subdirectory its own.

import { createRequire } from 'node:module';
import type { Ignore } from 'ignore';
import { MAX_IGNORE_LINE } from './limits.js';

// Loaded when the first ignore file with rules is read (a tree without one never needs it).
const require = createRequire(import.meta.url);
let ignoreFactory: typeof import('ignore') | null = null;

interface Layer {
  /** `/`-separated directory of the rules, relative to the walk's root ('' = the root). */
  readonly base: string;
  readonly rules: Ignore;
}

export class IgnoreStack {
  private readonly layers: readonly Layer[];

  private constructor(layers: readonly Layer[]) {
    this.layers = layers;
  }

  /** No rules: nothing is ignored. */
  static empty(): IgnoreStack {
    return new IgnoreStack([]);
  }

  /**
   * This stack plus the rules of one ignore file (its text, or a list of patterns) whose
   * directory is `base`. Blank and comment-only texts add no layer. A line longer than
   * MAX_IGNORE_LINE characters is not applied (its regular expression could exceed the
   * engine's limit or cost seconds per path): its 1-based number goes to `tooLong`.
   */
  with(base: string, patterns: string | readonly string[], tooLong?: number[]): IgnoreStack {
    const all = typeof patterns === 'string' ? patterns.split(/\r?\n/) : patterns;
    const lines = all.filter((l, i) => {
      if (l.length <= MAX_IGNORE_LINE) return true;
      tooLong?.push(i + 1);
      return false;
    });
    if (!lines.some((l) => l.trim() !== '' && !l.startsWith('#'))) return this;
    ignoreFactory ??= require('ignore') as typeof import('ignore');
    const rules = ignoreFactory({ allowRelativePaths: true }).add(lines as string[]);
    return new IgnoreStack([...this.layers, { base, rules }]);
  }

  /** Whether any layer holds a rule. */
  get isEmpty(): boolean {
    return this.layers.length === 0;
  }

  /**
   * Whether `path` (`/`-separated, relative to the walk's root, no leading `./`) is ignored.
   * The deepest layer with a matching rule decides (its last matching rule wins, `!`
   * re-including); a path no rule matches is kept. Callers do not descend into ignored
   * directories, which gives git's "a file under an excluded directory stays excluded".
   */
  ignores(path: string, isDir: boolean): boolean {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i] as Layer;
      let rel: string;
      if (layer.base === '') rel = path;
      else if (path.startsWith(layer.base + '/')) rel = path.slice(layer.base.length + 1);
      else continue;
      const result = layer.rules.test(isDir ? rel + '/' : rel);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
