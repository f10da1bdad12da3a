// Baseline for the build benchmark: write COUNT files of ~9 KB into a fresh directory — the
// file-creation cost any build pays on this disk. Prints elapsed milliseconds as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, count = '10000'] = process.argv.slice(2);
const body = 'deployment security cache budget token query context engine\n'.repeat(150);
const started = process.hrtime.bigint();
mkdirSync(dir, { recursive: true });
for (let i = 0; i < Number(count); i++) writeFileSync(join(dir, `${i}.json`), body);
process.stdout.write(JSON.stringify({ ms: Number(process.hrtime.bigint() - started) / 1e6 }) + '\n');
