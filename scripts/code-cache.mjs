// Writes dist/bundle/main.cjs.cache, V8's code cache of the CLI bundle (bin/load-bundle.mjs
// says how it is used). V8 caches the functions compiled so far, so this first runs, in this
// process, the commands users run most over a copy of examples/corpus in a temporary
// directory: v1 builds (files and sections), a rebuild with nothing changed and one after
// edits, resolve, status, inspect and verify, and v0's build and resolve. Their output is
// dropped. The file is the bundle's sha256, a newline, and V8's bytes, written atomically.
// The cache only saves time: if it cannot be made (no temporary directory, say), the build
// says so and goes on without it, and the CLI compiles its bundle as usual.
import { cpSync, appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDigest, CODE_CACHE, loadBundle } from '../bin/load-bundle.mjs';

async function takeCodeCache() {
  const { exports, script, source } = loadBundle({ cache: false });
  const work = mkdtempSync(join(tmpdir(), 'context-code-cache-'));
  try {
    const sources = join(work, 'docs');
    cpSync(fileURLToPath(new URL('../examples/corpus', import.meta.url)), sources, { recursive: true });
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: work };
    const run = async (...argv) => {
      const code = await exports.main(argv, io);
      if (code !== 0) throw new Error(`context ${argv.join(' ')} exited ${code}`);
    };
    const query = ['--query', 'how do I roll back a deployment', '--budget', '400'];
    for (const granularity of ['file', 'section']) {
      const cache = join(work, `v1-${granularity}`);
      await run('build', '--engine', 'v1', '--granularity', granularity, '--sources', sources, '--cache', cache);
      await run('build', '--engine', 'v1', '--granularity', granularity, '--sources', sources, '--cache', cache, '--force');
      await run('resolve', '--cache', cache, ...query);
    }
    appendFileSync(join(sources, 'README.md'), '\nEdited: a line to rebuild.\n');
    const cache = join(work, 'v1-file');
    await run('build', '--engine', 'v1', '--granularity', 'file', '--sources', sources, '--cache', cache, '--force');
    await run('status', '--cache', cache);
    await run('inspect', '--cache', cache);
    await run('verify', '--cache', cache);
    await run('resolve', '--cache', cache, ...query, '--format', 'pretty');
    const v0 = join(work, 'v0');
    await run('build', '--engine', 'v0', '--sources', sources, '--cache', v0);
    await run('resolve', '--cache', v0, ...query);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const temp = `${CODE_CACHE}.tmp`;
  writeFileSync(temp, Buffer.concat([Buffer.from(`${bundleDigest(source)}\n`, 'latin1'), script.createCachedData()]));
  renameSync(temp, CODE_CACHE);
}

try {
  await takeCodeCache();
} catch (err) {
  rmSync(`${CODE_CACHE}.tmp`, { force: true });
  process.stderr.write(`code-cache: no code cache written (${err instanceof Error ? err.message : String(err)}); the CLI compiles its bundle at each start instead\n`);
}
