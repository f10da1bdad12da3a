// Generated Markdown corpora, deterministic from a seed: every document different (v0
// refuses two files with the same content), words drawn from a small vocabulary so
// queries match, and a marker word per corpus so an answer shows which corpus it came from.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS = (
  'deployment security latency cache build index query budget token rollback release ' +
  'server client protocol document section heading error retry timeout memory disk ' +
  'network config policy review audit metric alert trace log storage backup restore'
).split(' ');

/** A small, fast, seedable generator (mulberry32): the same seed gives the same corpus. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CorpusSpec {
  readonly documents: number;
  /** Approximate bytes per document. */
  readonly bytes: number;
  readonly seed: number;
  /** A word every document of this corpus carries (tells corpora apart in answers). */
  readonly marker: string;
  /** Documents per subdirectory. */
  readonly perDir?: number;
}

/** One document's text: a heading, the marker, then words until `bytes`. */
export function documentText(spec: CorpusSpec, i: number, rand: () => number): string {
  const parts = [`# Document ${i} ${spec.marker}\n\n${spec.marker} doc${i} `];
  let size = parts[0]?.length ?? 0;
  while (size < spec.bytes) {
    const w = WORDS[Math.floor(rand() * WORDS.length)] as string;
    parts.push(w, rand() < 0.08 ? '.\n' : ' ');
    size += w.length + 1;
  }
  return parts.join('') + '\n';
}

/** Writes the corpus under `dir`; returns the number of bytes written. */
export function writeCorpus(dir: string, spec: CorpusSpec): number {
  const rand = prng(spec.seed);
  const perDir = spec.perDir ?? 500;
  let total = 0;
  for (let i = 0; i < spec.documents; i++) {
    const sub = join(dir, `d${String(Math.floor(i / perDir)).padStart(3, '0')}`);
    if (i % perDir === 0) mkdirSync(sub, { recursive: true });
    const text = documentText(spec, i, rand);
    writeFileSync(join(sub, `doc-${String(i).padStart(6, '0')}.md`), text);
    total += Buffer.byteLength(text);
  }
  return total;
}
