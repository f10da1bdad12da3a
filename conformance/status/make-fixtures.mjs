// Regenerates the fixtures of the context.status transcripts (run by hand, then review the
// diff): docs/ as it is now, caches/current built from it, caches/stale built from an older
// docs/ (faq.md different, old.md present, new.md absent), caches/v0 a v0 cache of docs/.
// Build states are removed: they hold this machine's file stamps, and status never reads them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', '..', 'bin', 'context');
const env = { ...process.env, SOURCE_DATE_EPOCH: '0' };
const docs = join(here, 'docs');
const write = (files) => {
  rmSync(docs, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(docs, name)), { recursive: true });
    writeFileSync(join(docs, name), text);
  }
};
const build = (cache, ...args) => {
  rmSync(join(here, 'caches', cache), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [bin, 'build', '--sources', 'docs', '--cache', join('caches', cache), ...args], { cwd: here, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  rmSync(join(here, 'caches', cache, 'build-state.json'), { force: true });
};
const guide = '# Guide\n\nInstall with npm, then run `context build`.\n';
write({ 'guide.md': guide, 'faq.md': '# FAQ\n\nOld answers.\n', 'old.md': 'Retired page.\n' });
build('stale', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4');
write({ 'guide.md': guide, 'faq.md': '# FAQ\n\nNew answers.\n', 'new.md': '# New\n\nA new page.\n' });
build('current', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4');
build('v0', '--engine', 'v0');
