// Checks issue 4 "Done when": a document citing this project's own sources verifies in CI,
// so the docs cannot silently rot. docs/citations-selfcheck.md and docs/citations.md are
// verified against this repository; editing or moving any cited span fails this test.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyOutcome } from '../../lib/core/citations/outcome.js';
import { parseJson } from '../../lib/json.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Report {
  readonly ok: boolean;
  readonly total: number;
  readonly results: ReadonlyArray<{ readonly claim: string; readonly ok: boolean; readonly reason?: string; readonly moved_to?: unknown }>;
}

function verify(root: string, args: Record<string, unknown>): { report: Report; status: string } {
  const out = verifyOutcome({ root, ...args }, { base: root });
  return { report: parseJson(out.text) as Report, status: out.status };
}

for (const [doc, atLeast] of [['docs/citations-selfcheck.md', 13], ['docs/citations.md', 18]] as const) {
  t.test(`${doc} verifies against this repository`, async (t) => {
    const { report, status } = verify(repo, { in_path: doc });
    t.same(report.results?.filter((r) => !r.ok), [], 'no citation or claim failed (re-cite with `context cite` after editing a cited file)');
    t.equal(status, 'ok');
    t.ok(report.total >= atLeast, `it still holds at least ${atLeast} claims (got ${report.total})`);
  });
}

t.test('the self-check really bites: an edited or moved span fails', async (t) => {
  const doc = readFileSync(join(repo, 'docs/citations-selfcheck.md'), 'utf8');
  const errors = readFileSync(join(repo, 'lib/errors.ts'), 'utf8');
  const token = doc.match(/\[\[vctx:lib\/errors\.ts#L7-L18@[0-9a-f]{8}\]\]/)?.[0];
  if (token === undefined) throw new Error('the self-check no longer cites lib/errors.ts L7-L18');
  const check = (tree: string) => verify(t.testdir({ lib: { 'errors.ts': tree } }), { text: token }).report.results[0];

  t.same(check(errors), { claim: token, kind: 'citation', ok: true }, 'an exact copy verifies');
  t.same(check(errors.replace("'Query is invalid'", "'Query was invalid'")), { claim: token, kind: 'citation', ok: false, reason: 'hash_mismatch' });
  t.same(check('// a new first line\n' + errors), {
    claim: token,
    kind: 'citation',
    ok: false,
    reason: 'hash_mismatch',
    moved_to: [{ start_line: 8, end_line: 19, citation: token.replace('#L7-L18@', '#L8-L19@') }],
  }, 'a moved span names its new place');
  t.same(check(errors.replace(/\r?\n/g, '\r\n')), { claim: token, kind: 'citation', ok: true }, 'a CRLF checkout still verifies');
});
