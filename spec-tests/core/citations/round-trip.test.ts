// Checks issue 4 as a property: for any text file (any mix of LF, CRLF and lone CR, a
// trailing newline or not, non-ASCII) and any valid range, the token `cite` produces
// verifies, and after lines are inserted above it any failure names where the span went.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { citeSpan } from '../../../lib/core/citations/cite.js';
import { MAX_MOVED_SPANS } from '../../../lib/core/citations/moved-span.js';
import { verifyText } from '../../../lib/core/citations/verify.js';
import { openWorkspace } from '../../../lib/core/citations/workspace.js';
import { nodeWorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

/** A small deterministic PRNG (mulberry32), so every run checks the same cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'βeta', '', '  indented', 'tab\there', '日本', '😀 emoji', '#', ']]', 'x'];
const BREAKS = ['\n', '\r\n', '\r'];

t.test('cite then verify holds for random files and ranges', async (t) => {
  const dir = t.testdir({});
  const rand = prng(4);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const failures: string[] = [];
  for (let i = 0; i < 200; i++) {
    const n = 1 + Math.floor(rand() * 12);
    const lines = Array.from({ length: n }, () => pick(WORDS));
    let body = lines.map((l, k) => (k === 0 ? l : pick(BREAKS) + l)).join('');
    if (rand() < 0.5) body += pick(BREAKS);
    const name = `f${i}.txt`;
    writeFileSync(join(dir, name), body);
    const ws = openWorkspace(nodeWorkspaceFs, dir);
    const count = body.replace(/\r\n?/g, '\n').split('\n').length;
    const start = 1 + Math.floor(rand() * count);
    const end = start + Math.floor(rand() * (count - start + 1));
    const cited = citeSpan(ws, name, start, end);
    if (!cited.ok) {
      failures.push(`${name} L${start}-L${end}: ${cited.reason}`);
      continue;
    }
    const report = verifyText(ws, `<!-- ${cited.citation} -->`);
    if (!report.ok) failures.push(`${name}: ${cited.citation} did not verify`);
    // Push the span down by two lines: unless the same text now sits at the old place (then
    // the citation still holds), the failure must name where it went (or list the maximum).
    // (The second break is LF: a lone CR there would join the body's leading LF into one CRLF.)
    writeFileSync(join(dir, name), `new 1${pick(BREAKS)}new 2\n${body}`);
    const moved = verifyText(openWorkspace(nodeWorkspaceFs, dir), cited.citation).results[0];
    const target = moved?.movedTo?.find((m) => m.startLine === start + 2 && m.endLine === end + 2);
    const listed = target !== undefined || moved?.movedTo?.length === MAX_MOVED_SPANS;
    if (moved?.ok === false && !listed) failures.push(`${name}: the move of ${cited.citation} was not found`);
  }
  t.same(failures, []);
});
