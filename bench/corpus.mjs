// Generates a deterministic Markdown corpus for benchmarks: COUNT documents of ~9 KB each
// (about 90 MB for 10,000) in 100 folders, words drawn from a fixed vocabulary by a seeded
// generator, so every machine benchmarks the same bytes.
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The generated corpus's vocabulary (shared with bench/markdown-throughput.mjs). */
export const VOCAB = (
  'deployment security cache budget token query context engine document selection score ' +
  'manifest index version hash build resolve inspect verify server protocol agent tool ' +
  'network storage latency throughput replica cluster config policy access audit log ' +
  'metric trace span error retry timeout backoff queue worker schedule batch stream ' +
  'the a of to and in is for on with as by at from that this be are it or an'
).split(' ');

/** A small deterministic generator (LCG) of 32-bit values. */
export function* rng(seed) {
  let s = seed >>> 0;
  for (;;) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    yield s;
  }
}

/** `min` to `min + spread - 1` vocabulary words drawn from `r`, joined by spaces (the throughput benches' sentences). */
export function sentence(r, min, spread) {
  const n = min + (r.next().value % spread);
  const words = [];
  for (let w = 0; w < n; w++) words.push(VOCAB[r.next().value % VOCAB.length]);
  return words.join(' ');
}

export function generateCorpus(dir, count = 10_000, bytesPerDoc = 9_000) {
  const stamp = join(dir, '.complete');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === `${count}:${bytesPerDoc}`) return dir;
  const r = rng(42);
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `area-${String(i % 100).padStart(2, '0')}`);
    if (i < 100) mkdirSync(folder, { recursive: true });
    const parts = [`# Document ${i}\n\n`];
    let size = parts[0].length;
    while (size < bytesPerDoc) {
      const n = 8 + (r.next().value % 12);
      const words = [];
      for (let w = 0; w < n; w++) words.push(VOCAB[r.next().value % VOCAB.length]);
      const line = words.join(' ') + '.\n';
      parts.push(line);
      size += line.length;
    }
    writeFileSync(join(folder, `doc-${String(i).padStart(5, '0')}.md`), parts.join(''));
  }
  writeFileSync(stamp, `${count}:${bytesPerDoc}`);
  return dir;
}
