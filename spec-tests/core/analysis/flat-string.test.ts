// lib/core/analysis/flat-string.ts: heading texts are copied into flat strings before the
// term and token counters read them (docs/engine-measurements.md "Heading texts read as flat strings").
// The copy must be the same characters, whatever they are; and it must be what it is for: a
// string of the class a decoded file's text has, not the joined or sliced one it came from.
import t from 'tap';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { flatString } from '../../../lib/core/analysis/flat-string.js';

t.test('the same characters, for any string (lone surrogates, controls, quotes, escapes)', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'binary-ascii', maxLength: 20 }), (a, b) => {
      const joined = a + '"\\' + b;
      return flatString(a) === a && flatString(joined) === joined && flatString(joined.slice(1)) === joined.slice(1);
    }),
    { seed: 24, numRuns: 2000 },
  );
  const cases = ['', 'x', '\ud800', '\udfff\ud800', '"', '\\', '\u2028\u2029', '\u0000\u001f', '🚀 launch', 'naïve café'.repeat(50)];
  // (named by their code units: a line separator in a test's name would cut the TAP line)
  for (const s of cases) t.equal(flatString(s), s, Array.from(s.slice(0, 12), (c) => c.charCodeAt(0).toString(16)).join(' '));
});

t.test('joined and sliced strings come back with the class of a decoded text (V8, as this Node runs it)', async (t) => {
  // %HaveSameMap compares hidden classes: a one-byte text decoded from bytes is a flat
  // sequential string; a heading as rendered is a cons (joined) or sliced string.
  const script = `
    const { flatString } = await import(${JSON.stringify(new URL('../../../lib/core/analysis/flat-string.ts', import.meta.url).href)});
    const flat = Buffer.from('a decoded one-byte text').toString();
    const wide = Buffer.from('a decoded two-byte text \u03bb').toString();
    const base = 'Getting started with the command line, '.repeat(3);
    const joined = base.slice(0, 20) + String(process.pid);
    const sliced = base.slice(3, 40);
    const wideSliced = (base + '\u03bb').slice(3, 200);
    console.log(JSON.stringify([
      %HaveSameMap(joined, flat), %HaveSameMap(sliced, flat),
      %HaveSameMap(flatString(joined), flat), %HaveSameMap(flatString(sliced), flat), %HaveSameMap(flatString(wideSliced), wide),
    ]));`;
  const run = spawnSync(process.execPath, [...process.execArgv, '--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  t.same(JSON.parse(run.stdout), [false, false, true, true, true]);
});
