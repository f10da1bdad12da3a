// Replays every MCP transcript: `conformance/**/<case>.in.jsonl` (client bytes) must produce
// exactly `<case>.out.jsonl` (server stdout bytes), in-process (input in one chunk, and cut
// into tiny chunks) and through a spawned `bin/context mcp`. UPDATE_TRANSCRIPTS=1 rewrites
// the .out.jsonl files from the in-process run; review them as diffs before committing.
//
// Each case runs with its directory as working directory and `context mcp` arguments from
// `<case>.argv.json`, else `argv.json` in the case's directory, else `--cache-root caches`.
// A directory whose cases write (context.build) lists in `reset.json` what each run
// removes first, so every run starts from the same files.

import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../lib/cli/main.js';
import { compareBytes, parseJson } from '../lib/json.js';
import { BIN, contextCommand, hostEnv, REPO } from '../spec-tests/mcp/spawn-server.js';

const here = dirname(fileURLToPath(import.meta.url));
const update = process.env['UPDATE_TRANSCRIPTS'] === '1';
const SMALL = 64 * 1024;

interface Case {
  readonly name: string;
  readonly dir: string;
  readonly input: Buffer;
  readonly outPath: string;
  readonly argv: readonly string[];
}

function findCases(dir: string): Case[] {
  const cases: Case[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareBytes(a.name, b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') cases.push(...findCases(path));
    if (!e.isFile() || !e.name.endsWith('.in.jsonl')) continue;
    const stem = e.name.slice(0, -'.in.jsonl'.length);
    const outPath = join(dir, `${stem}.out.jsonl`);
    if (!existsSync(outPath) && !update) continue;
    cases.push({
      name: relative(here, join(dir, stem)),
      dir,
      input: readFileSync(path),
      outPath,
      argv: argvFor(dir, stem),
    });
  }
  return cases;
}

function argvFor(dir: string, stem: string): readonly string[] {
  for (const file of [join(dir, `${stem}.argv.json`), join(dir, 'argv.json')]) {
    if (!existsSync(file)) continue;
    const value = parseJson(readFileSync(file, 'utf8'));
    if (!Array.isArray(value) || !value.every((a) => typeof a === 'string')) {
      throw new Error(`${file}: expected a JSON array of strings`);
    }
    return value as string[];
  }
  return ['--cache-root', 'caches'];
}

/** Removes what `<dir>/reset.json` lists (paths relative to the case's directory). */
function reset(dir: string): void {
  const file = join(dir, 'reset.json');
  if (!existsSync(file)) return;
  const value = parseJson(readFileSync(file, 'utf8'));
  if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && !p.startsWith('/') && !p.split('/').includes('..'))) {
    throw new Error(`${file}: expected a JSON array of relative paths inside the directory`);
  }
  for (const p of value as string[]) rmSync(join(dir, p), { recursive: true, force: true });
}

function chunksOf(input: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < input.length; i += size) chunks.push(input.subarray(i, i + size));
  return chunks;
}

/** Runs `context mcp` in this process over injected streams; returns stdout and exit code. */
async function runInProcess(c: Case, chunks: readonly Buffer[]): Promise<{ out: Buffer; code: number; err: string }> {
  reset(c.dir);
  const out: Buffer[] = [];
  let err = '';
  const stdoutStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(Buffer.from(chunk));
      done();
    },
  });
  const code = await main(['mcp', ...c.argv], {
    stdout: (text) => out.push(Buffer.from(text, 'utf8')),
    stderr: (text) => {
      err += text;
    },
    env: {},
    cwd: c.dir,
    stdin: Readable.from(chunks),
    stdoutStream,
  });
  return { out: Buffer.concat(out), code, err };
}

/** Runs the real `bin/context mcp` as a host would: whole input, then stdin closed. */
function runSpawned(c: Case): Promise<{ out: Buffer; code: number | null; err: string }> {
  reset(c.dir);
  return new Promise((resolve, reject) => {
    const { command, args } = contextCommand(['mcp', ...c.argv]);
    const child = spawn(command, args, {
      cwd: c.dir,
      env: hostEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ out: Buffer.concat(out), code, err }));
    child.stdin.end(c.input);
  });
}

function sameBytes(t: Test, actual: Buffer, expected: Buffer, what: string): void {
  if (actual.equals(expected)) t.pass(what);
  else t.equal(actual.toString('utf8'), expected.toString('utf8'), what);
}

const cases = findCases(here);
const built = existsSync(join(REPO, 'dist', 'cli', 'main.js'));

t.ok(cases.length > 0, 'conformance/ holds transcripts');

for (const c of cases) {
  t.test(c.name, async (t) => {
    const whole = await runInProcess(c, [c.input]);
    if (update) writeFileSync(c.outPath, whole.out);
    const expected = readFileSync(c.outPath);
    t.equal(whole.code, 0, 'in-process: exit 0 when stdin closes');
    sameBytes(t, whole.out, expected, 'in-process, one chunk: stdout is the transcript byte for byte');

    // Tiny chunks cut every line, and every multi-byte UTF-8 character, somewhere.
    const size = c.input.length <= SMALL ? 1 : 4093;
    const split = await runInProcess(c, chunksOf(c.input, size));
    sameBytes(t, split.out, expected, `in-process, ${size}-byte chunks: same bytes`);

    if (!built) {
      t.fail('dist/ is missing: run `npm run build` to replay through bin/context');
      return;
    }
    const spawned = await runSpawned(c);
    t.equal(spawned.code, 0, 'spawned: exit 0 when stdin closes', { stderr: spawned.err });
    sameBytes(t, spawned.out, expected, `spawned ${basename(BIN)} mcp: same bytes`);
  });
}
