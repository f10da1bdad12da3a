// Checks issue 12 item 8 "Scopes you can start: `context scope init --scope S` writes a
// schema-valid `.context.yaml` skeleton with the current fingerprint (placeholders a person
// or an agent fills in), refusing to overwrite". Schema-valid twice over: by this engine's
// reader and by dotcontext's published JSON Schema (spec-tests/fixtures, Ajv 2020-12).
import t from 'tap';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';
import { classifyContextText } from '../../lib/core/scopes/api.js';
import { fingerprintDir } from '../../lib/core/scopes/fingerprint.js';
import { loadProjectConfig, rulesForScope } from '../../lib/core/scopes/project-config.js';

const SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/dotcontext-context.schema.json', import.meta.url), 'utf8')) as object;
const validateSchema = new Ajv2020({ strict: false, allErrors: true }).compile(SCHEMA);

async function run(argv: string[], cwd: string, env: Record<string, string> = { SOURCE_DATE_EPOCH: '1700000000' }) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), env, cwd };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const project = () => ({
  '.gitignore': '*.log\nignored-dir/\n',
  lib: {
    core: {
      'b.ts': 'export const b = 1;\n',
      'a.ts': 'export const a = 1;\n',
      'debug.log': 'noise',
      '.hidden-file': 'h',
      cache: { 'x.ts': 'x' },
      '.secret': { 'y.ts': 'y' },
      node_modules: { 'z.js': 'z' },
      'ignored-dir': { 'w.ts': 'w' },
    },
    empty: {},
  },
});

t.test('writes a skeleton: schema-valid, current fingerprint, files and subdirectories by name', async (t) => {
  const dir = t.testdir(project());
  const r = await run(['scope', 'init', '--scope', 'lib/core'], dir);
  t.equal(r.code, 0, 'exit 0');
  t.equal(r.stderr, '');
  const text = readFileSync(join(dir, 'lib', 'core', '.context.yaml'), 'utf8');
  const verdict = classifyContextText(text);
  t.equal(verdict.kind, 'valid', "this engine's reader accepts it");
  const value = parse(text) as Record<string, unknown>;
  t.ok(validateSchema(value), "dotcontext's published JSON Schema accepts it", { errors: validateSchema.errors });
  const config = loadProjectConfig(dir);
  const fingerprint = fingerprintDir(join(dir, 'lib', 'core'), 'lib/core', rulesForScope(dir, config, 'lib/core')).content;
  t.same(
    { version: value['version'], scope: value['scope'], fingerprint: value['fingerprint'], last_updated: value['last_updated'] },
    { version: 1, scope: 'lib/core', fingerprint, last_updated: '2023-11-14T22:13:20Z' },
    'metadata: the current content fingerprint, SOURCE_DATE_EPOCH as last_updated',
  );
  t.same((value['files'] as { name: string }[]).map((f) => f.name), ['.hidden-file', 'a.ts', 'b.ts'], 'files: the fingerprinted ones, byte order, ignored ones left out');
  t.same((value['subdirectories'] as { name: string }[]).map((f) => f.name), ['cache'], 'subdirectories: not hidden, build or ignored ones');
  t.match(String(value['summary']), /^TODO: /, 'placeholders say TODO');
  t.ok((value['files'] as { purpose: string }[]).every((f) => f.purpose.startsWith('TODO: ')));
  t.match(text, /^# \.context\.yaml for scope "lib\/core"/, 'a comment says what the file is and how to keep it');
  t.same(JSON.parse(r.stdout), { scope: 'lib/core', result: 'created', file: 'lib/core/.context.yaml', fingerprint, last_updated: '2023-11-14T22:13:20Z' });
  const fresh = await run(['freshness', '--scope', 'lib/core'], dir);
  t.match(fresh.stdout, /"state": "fresh"/, 'fresh right away (the file itself is not fingerprinted)');
  const shown = await run(['show', '--scope', 'lib/core', '--filter', 'summary'], dir);
  t.equal(shown.code, 0, 'context show reads it');
});

t.test('an empty directory, the root, other spellings of a scope', async (t) => {
  const dir = t.testdir(project());
  const empty = await run(['scope', 'init', '--scope', 'lib\\empty'], dir);
  t.equal(empty.code, 0);
  const value = parse(readFileSync(join(dir, 'lib', 'empty', '.context.yaml'), 'utf8')) as Record<string, unknown>;
  t.notOk('files' in value || 'subdirectories' in value, 'nothing to list: no empty lists');
  t.equal(value['scope'], 'lib/empty', 'the file carries the canonical scope');
  t.equal(JSON.parse(empty.stdout).scope, 'lib/empty', 'backslashes read as slashes');
  const root = await run(['scope', 'init', '--scope', '.'], dir);
  t.equal(root.code, 0);
  t.equal(JSON.parse(root.stdout).file, '.context.yaml');
  t.ok(validateSchema(parse(readFileSync(join(dir, '.context.yaml'), 'utf8'))), 'root skeleton valid');
  const viaRoot = await run(['scope', 'init', '--scope', 'core', '--root', 'lib'], dir);
  t.equal(viaRoot.code, 0, '--root names the project root');
  t.equal(parse(readFileSync(join(dir, 'lib', 'core', '.context.yaml'), 'utf8')).scope, 'core');
});

t.test('never overwrites: a file, a corrupt file, a dangling symlink at that name', async (t) => {
  const dir = t.testdir(project());
  writeFileSync(join(dir, 'lib', 'empty', '.context.yaml'), 'not: [valid\n');
  symlinkSync('nowhere', join(dir, 'lib', 'core', '.context.yaml'));
  for (const scope of ['lib/empty', 'lib/core']) {
    const r = await run(['scope', 'init', '--scope', scope], dir);
    t.equal(r.code, 8, `${scope}: exit 8 (the answer is a failure)`);
    t.same(JSON.parse(r.stdout), { scope, result: 'refused', error: `A .context.yaml already exists at scope "${scope}": edit it, then run context rehash` });
    t.match(r.stderr, /^context scope init: A \.context\.yaml already exists/);
  }
  t.equal(readFileSync(join(dir, 'lib', 'empty', '.context.yaml'), 'utf8'), 'not: [valid\n', 'the corrupt file is untouched');
  const again = await run(['scope', 'init', '--scope', '.'], dir);
  t.equal(again.code, 0);
  const second = await run(['scope', 'init', '--scope', '.'], dir);
  t.equal(second.code, 8, 'a second init of the same scope is refused');
});

t.test('refusals: traversal, no such directory, a file', async (t) => {
  const dir = t.testdir(project());
  const cases: [string, string][] = [
    ['../outside', 'Invalid scope: path traversal detected'],
    ['/etc', 'Invalid scope: path traversal detected'],
    ['lib/nope', 'No directory at scope "lib/nope"'],
    ['lib/core/a.ts', 'No directory at scope "lib/core/a.ts"'],
  ];
  for (const [scope, error] of cases) {
    const r = await run(['scope', 'init', '--scope', scope], dir);
    t.equal(r.code, 8, `${scope}: exit 8`);
    t.same(JSON.parse(r.stdout), { scope, result: 'refused', error }, scope);
  }
});

t.test('usage errors exit 1: no subcommand, an unknown one, no --scope; help exits 0', async (t) => {
  const dir = t.testdir({});
  for (const argv of [['scope'], ['scope', 'create', '--scope', 'x'], ['scope', 'init'], ['scope', 'init', '--scope', 'x', 'extra']]) {
    const r = await run(argv, dir);
    t.equal(r.code, 1, argv.join(' '));
    t.equal(r.stdout, '', `${argv.join(' ')}: nothing on stdout`);
  }
  const help = await run(['scope', 'init', '--help'], dir);
  t.equal(help.code, 0);
  t.match(help.stdout, /context scope init --scope SCOPE/);
});
