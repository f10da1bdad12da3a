// Gitignore-style rules: which files and directories a scan leaves out. Follows git's
// pattern syntax (`#` comments, `!` negation, trailing `/` for directories, a slash
// anchoring a pattern to its file's directory, `*`, `?`, `[...]`, `**`); last match wins.

export interface IgnoreRule {
  /** `/`-separated directory the rule's file lives in, relative to the root ('' = root). */
  readonly base: string;
  readonly negated: boolean;
  readonly dirOnly: boolean;
  /** Anchored rules match the path below `base`; others match the name at any depth. */
  readonly anchored: boolean;
  readonly regex: RegExp;
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) ? '\\' + c : c;
}

/** Translates one glob (already stripped of `!`, leading and trailing `/`) to a regex body. */
function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeChar(glob[++i] as string);
    } else if (c === '*') {
      let j = i;
      while (glob[j + 1] === '*') j++;
      const double = j > i;
      const atStart = i === 0 || glob[i - 1] === '/';
      const atEnd = j + 1 === glob.length || glob[j + 1] === '/';
      if (double && atStart && atEnd) {
        if (j + 1 === glob.length) {
          out += '.*';
        } else {
          out += '(?:.*/)?';
          j++; // the '/' after '**' is part of the optional group
        }
      } else {
        out += '[^/]*';
      }
      i = j;
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, close);
        let negate = false;
        if (body.startsWith('!') || body.startsWith('^')) {
          negate = true;
          body = body.slice(1);
        }
        const inner = body.replace(/[\\\]^]/g, (m) => '\\' + m);
        out += negate ? `(?!/)[^${inner}]` : `[${inner}]`;
        i = close;
      }
    } else {
      out += escapeChar(c);
    }
  }
  return out;
}

/** Parses one ignore file's text; `base` is its directory relative to the root. */
export function parseIgnoreRules(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split('\n')) {
    let line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    // Trailing spaces are dropped unless escaped with a backslash.
    line = line.replace(/(?<!\\)[ \t]+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/') && !line.endsWith('\\/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    const anchored = line.includes('/');
    line = line.replace(/^\/+/, '');
    if (line === '') continue;
    rules.push({ base, negated, dirOnly, anchored, regex: new RegExp(`^${globToRegex(line)}$`) });
  }
  return rules;
}

/** Whether `path` (`/`-separated, relative to the root) is ignored by `rules`. */
export function isIgnored(rules: readonly IgnoreRule[], path: string, isDir: boolean): boolean {
  let ignored = false;
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    let subject: string;
    if (rule.base === '') {
      subject = path;
    } else if (path.startsWith(rule.base + '/')) {
      subject = path.slice(rule.base.length + 1);
    } else {
      continue;
    }
    if (rule.regex.test(rule.anchored ? subject : name)) ignored = !rule.negated;
  }
  return ignored;
}
