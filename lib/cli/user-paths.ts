// Paths in an error's detail, as the user wrote them. The engine works on absolute paths
// (each command resolves its options against the working directory); a person who typed
// `--cache caches/docs` should read `caches/docs/packs/…` in the message, not the absolute
// path. Every value on the command line is a candidate: an absolute path that is, or lies
// under, the resolved value (or, for a relative value, the folder holding it) is written
// back in the user's spelling (the longest match wins).

import { dirname, isAbsolute, resolve, sep } from 'node:path';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The values of a command line: arguments and `--flag=value` values (flags themselves are not paths). */
function valuesOf(argv: readonly string[]): string[] {
  const values: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) {
      const eq = arg.indexOf('=');
      if (arg.startsWith('--') && eq > 0) values.push(arg.slice(eq + 1));
    } else values.push(arg);
  }
  // A path is at most PATH_MAX bytes and one line: a query (up to 64 KiB) is not one.
  return values.filter((v) => v !== '' && v.length <= 4096 && !/[\0\n\r]/.test(v));
}

/** `text` with every absolute path the command line named written as the user gave it. */
export function inUserTerms(text: string, argv: readonly string[], cwd: string): string {
  const pairs = new Map<string, string>();
  const add = (abs: string, spelled: string): void => {
    if (abs !== spelled && abs !== sep && !pairs.has(abs)) pairs.set(abs, spelled);
  };
  for (const value of valuesOf(argv)) {
    const spelled = value.length > 1 && value.endsWith(sep) ? value.replace(/\/+$/, '') : value;
    add(resolve(cwd, value), spelled);
    // A build stages beside its target (`caches/.docs.tmp-…` for `--cache caches/docs`): the
    // folder holding a relative value is named relatively too.
    if (!isAbsolute(value)) add(resolve(cwd, dirname(spelled)), dirname(spelled));
  }
  let out = text;
  for (const [abs, spelled] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    out = out.replace(new RegExp(`(?<![\\w.~/-])${escapeRegExp(abs)}(?=$|[/\\s):;,'"])`, 'g'), () => spelled);
  }
  return out;
}
