// The floor of a cold `context resolve` on a format-5 cache (docs/engine.md "What is
// checked, and when"): a fresh process that reads the manifest and then reads and sha256s
// every pack's head into one buffer used again, as resolve must before it may trust any of
// them, and nothing else — no CLI, no decoding, no ranking. Prints the packs and head bytes
// as JSON; fails if a head does not hash to its record.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dir = process.argv[2];
const packs = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).files.packs;
const scratch = Buffer.allocUnsafe(packs.reduce((n, p) => Math.max(n, p.head.bytes), 0));
let bytes = 0;
for (const p of packs) {
  const fd = openSync(join(dir, 'packs', `${p.sha256}.pack`), 'r');
  try {
    if (readSync(fd, scratch, 0, p.head.bytes, 0) !== p.head.bytes) throw new Error(`${p.sha256}.pack is truncated`);
  } finally {
    closeSync(fd);
  }
  if (createHash('sha256').update(scratch.subarray(0, p.head.bytes)).digest('hex') !== p.head.sha256) throw new Error(`the head of ${p.sha256}.pack does not match`);
  bytes += p.head.bytes;
}
process.stdout.write(JSON.stringify({ packs: packs.length, bytes }) + '\n');
