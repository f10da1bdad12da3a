// Baseline for the build benchmark: walk a folder, read every *.md and sha256 it — the
// least any build must do. Prints the file count, bytes and elapsed milliseconds as JSON.
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const started = process.hrtime.bigint();
let files = 0;
let bytes = 0;
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.md')) {
      const b = readFileSync(p);
      createHash('sha256').update(b).digest('hex');
      files++;
      bytes += b.length;
    }
  }
};
walk(process.argv[2]);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(JSON.stringify({ files, bytes, ms }) + '\n');
