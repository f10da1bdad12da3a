// Checks issue 12 "a test that runs the README's commands as written": every command line
// of the README's `sh` blocks that runs this project's CLI (`./bin/context …`, and
// `context …` as the host section spells it with `context` on the PATH) runs, in README
// order, in a fresh clone layout — the repository's files (git ls-files, else a copy
// without ignored folders) with the checkout's node_modules and dist beside them, as
// `npm ci` would leave them — and exits 0. Lines for other programs (npm, a host's
// `mcp add`) are listed, so a new kind of README command cannot slip by untested. The
// `--format text` example is the command's output byte for byte; the JSON snippets parse.
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from '../mcp/spawn-server.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The lines of every ```sh block, in order, with continuation lines joined. */
function shellLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const m of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of (m[1] ?? '').replace(/\\\n/g, ' ').split('\n')) if (line.trim() !== '') lines.push(line);
  }
  return lines;
}

/** Commands for other programs, each with why the test does not run it. */
const NOT_OURS: readonly [RegExp, string][] = [
  [/^npm ci && npm (run demo|test)$/, 'installing and the test suite itself (the demo is run by the pack test and CI)'],
  [/^npm run demo -- /, 'the demo with a question of your own'],
  [/^claude mcp add /, "a host's registration command"],
  [/^\(cd examples && npx mcp-inspector-cli --cli /, 'the MCP Inspector lines: spec-tests/mcp/readme-inspector.test.ts runs them as written'],
];

const isOurs = (line: string): boolean => line.startsWith('./bin/context ') || line.startsWith('context ');

/** A copy of what a clone holds, with the installed dependencies and build output linked in. */
function freshLayout(target: string): void {
  let files: string[] | null = null;
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
    files = out.split('\0').filter((f) => f !== '' && existsSync(join(REPO, f)));
  } catch {
    files = null; // not a git checkout (an unpacked tarball): copy the tree instead
  }
  if (files !== null) {
    for (const f of files) {
      mkdirSync(dirname(join(target, f)), { recursive: true });
      cpSync(join(REPO, f), join(target, f), { verbatimSymlinks: true });
    }
  } else {
    const skip = new Set(['node_modules', 'dist', '.git', '.tap', 'coverage', '.demo']);
    cpSync(REPO, target, { recursive: true, filter: (src) => !skip.has(src.slice(REPO.length + 1).split('/')[0] ?? '') });
  }
  symlinkSync(join(REPO, 'node_modules'), join(target, 'node_modules'));
  symlinkSync(join(REPO, 'dist'), join(target, 'dist'));
}

const lines = shellLines(README);

t.test('the README has CLI commands, and every other line is accounted for', async (t) => {
  t.ok(lines.filter(isOurs).length >= 14, `${lines.filter(isOurs).length} CLI command lines`);
  for (const line of lines.filter((l) => !isOurs(l))) {
    t.ok(NOT_OURS.some(([re]) => re.test(line)), `not ours, with a reason: ${line}`);
  }
});

t.test("every CLI command of the README, as written, in a fresh clone layout", async (t) => {
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const base = t.testdir({ home: {}, path: {} });
  const clone = join(base, 'context');
  freshLayout(clone);
  // `context` on the PATH as `npm link` would put it; HOME for the host section's ~/.context.
  symlinkSync(join(clone, 'bin', 'context'), join(base, 'path', 'context'));
  const env = {
    PATH: `${join(base, 'path')}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: join(base, 'home'),
  };
  for (const line of lines.filter(isOurs)) {
    // Through sh, as a reader pastes it: quotes, ~ and trailing # comments work as written.
    // tap puts a loader hook into NODE_OPTIONS of every child; the bin must not see it.
    const r = spawnSync('/bin/sh', ['-c', `unset NODE_OPTIONS; ${line}`], { cwd: clone, env, encoding: 'utf8', input: '', maxBuffer: 64 * 1024 * 1024 });
    t.equal(r.status, 0, `exit 0: ${line}`, { stderr: r.stderr, stdout: r.stdout.slice(0, 2000) });
    if (/ mcp( |$)/.test(line)) {
      t.equal(r.stdout, '', `${line}: the MCP server, stdin closed at once, says nothing`);
      continue;
    }
    t.not(r.stdout, '', `prints its answer: ${line}`);
    if (r.stdout.startsWith('{')) t.doesNotThrow(() => JSON.parse(r.stdout), `${line}: stdout is JSON`);
  }
});

t.test("the README's --format text example is what the command prints", async (t) => {
  const block = /`--format text` is\nfor people[^]*?\n```\n([^]*?)```\n/.exec(README)?.[1];
  t.ok(block !== undefined, 'the example is there');
  const cache = join(REPO, 'spec-tests', 'fixtures', 'compat-v0', 'caches', 'realistic');
  const r = spawnSync('/bin/sh', ['-c', `unset NODE_OPTIONS; exec "$0" "$@"`, process.execPath, join(REPO, 'bin', 'context'), 'resolve', '--cache', cache, '--query', 'deployment security', '--budget', '4000', '--format', 'text'], { encoding: 'utf8' });
  t.equal(r.stdout, block, 'byte for byte');
});

t.test("the README's JSON snippets parse", async (t) => {
  const blocks = [...README.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  t.ok(blocks.length >= 1);
  for (const block of blocks) t.doesNotThrow(() => JSON.parse(block), block.slice(0, 60));
});
