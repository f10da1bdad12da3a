// Checks that the host snippets in README.md and docs/mcp.md (issue: MCP 2026-07-28 beside the
// handshake eras, "Done when": "the host snippets (JSON config, `claude mcp add`) are tested
// for syntax") are well-formed and start the server: every ```json block with mcpServers
// parses, each entry is {command: "context", args: [...], env?: {...}} of strings; every
// `claude mcp add` line is valid shell whose words follow `claude mcp add NAME [-e K=V]... --
// COMMAND ARGS...`; and each command, run as `bin/context` with its arguments and
// environment and stdin closed, is accepted (exit 0, nothing on stderr).
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPlainObject } from '../../lib/mcp/json-rpc.js';
import { parseJson } from '../../lib/json.js';
import { BIN, REPO } from './spawn-server.js';

const FILES = ['README.md', join('docs', 'mcp.md')];

function blocks(text: string, lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] ?? '');
  return out;
}

/** Runs `context ARGS` as a host would start it, with stdin closed at once. */
function startsServer(t: Test, args: readonly string[], env: Record<string, string>, what: string): void {
  const home = t.testdir({});
  const r = spawnSync('/bin/sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, BIN, ...args], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...env },
    input: '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(r.status, 0, `${what}: the server accepts these arguments and exits 0 at end of input`, { stderr: r.stderr });
  t.equal(r.stderr, '', `${what}: nothing on stderr`);
}


t.test('JSON mcpServers snippets', async (t) => {
  let count = 0;
  for (const file of FILES) {
    for (const block of blocks(readFileSync(join(REPO, file), 'utf8'), 'json')) {
      if (!block.includes('"mcpServers"')) continue;
      const value = parseJson(block);
      t.ok(isPlainObject(value) && isPlainObject(value['mcpServers']), `${file}: parses, with an mcpServers object`);
      const servers = (value as { mcpServers: Record<string, unknown> }).mcpServers;
      for (const [name, entry] of Object.entries(servers)) {
        count++;
        const e = entry as { command?: unknown; args?: unknown; env?: unknown };
        t.equal(e.command, 'context', `${file} ${name}: command is context`);
        t.ok(Array.isArray(e.args) && e.args.every((a) => typeof a === 'string'), `${file} ${name}: args are strings`);
        const env = e.env ?? {};
        t.ok(isPlainObject(env) && Object.values(env).every((v) => typeof v === 'string'), `${file} ${name}: env values are strings`);
        startsServer(t, e.args as string[], env as Record<string, string>, `${file} ${name}`);
      }
    }
  }
  t.ok(count >= 4, `${count} JSON entries checked`);
});

t.test('`claude mcp add` lines', async (t) => {
  let count = 0;
  for (const file of FILES) {
    for (const block of blocks(readFileSync(join(REPO, file), 'utf8'), 'sh')) {
      for (const line of block.split('\n')) {
        if (!line.startsWith('claude mcp add ')) continue;
        count++;
        // The shell splits the line into words; a function named claude prints them.
        const r = spawnSync('/bin/sh', ['-c', `claude() { printf '%s\\0' "$@"; }\n${line}`], { encoding: 'utf8' });
        t.equal(r.status, 0, `${file}: valid shell: ${line.slice(0, 50)}…`, { stderr: r.stderr });
        const words = r.stdout.split('\0').slice(0, -1);
        t.same(words.slice(0, 3), ['mcp', 'add', 'context'], 'claude mcp add NAME');
        const dashes = words.indexOf('--');
        t.ok(dashes > 2, 'the server command follows --');
        const env: Record<string, string> = {};
        for (let i = 3; i < dashes; i += 2) {
          t.equal(words[i], '-e', 'only -e K=V options before --');
          const kv = words[i + 1] ?? '';
          t.match(kv, /^[A-Z_]+=.+$/, `-e ${kv}: K=V`);
          env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
        }
        t.equal(words[dashes + 1], 'context', 'the command is context');
        startsServer(t, words.slice(dashes + 2), env, `${file}: ${line.slice(0, 40)}…`);
      }
    }
  }
  t.ok(count >= 3, `${count} claude mcp add lines checked`);
});
