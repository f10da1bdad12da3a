// Checks issue 5 "Tracked directories: .gitignore rules ... are skipped": git's pattern
// syntax — comments, negation (last match wins), directory-only, anchoring, globs, nesting.
import t from 'tap';
import { isIgnored, parseIgnoreRules } from '../../../lib/core/scopes/ignore-rules.js';

t.test('unanchored patterns match the name at any depth', async (t) => {
  const rules = parseIgnoreRules('# comment\n\n*.log\ntmp\n', '');
  t.ok(isIgnored(rules, 'debug.log', false));
  t.ok(isIgnored(rules, 'a/b/debug.log', false));
  t.ok(isIgnored(rules, 'a/tmp', true));
  t.notOk(isIgnored(rules, 'a/b.ts', false));
  t.notOk(isIgnored(rules, '# comment', false));
});

t.test('anchored patterns, directory-only patterns, negation', async (t) => {
  const rules = parseIgnoreRules('/gen\ndocs/api/\nout/\n!out\n*.ts\n!keep.ts\n', '');
  t.ok(isIgnored(rules, 'gen', true));
  t.notOk(isIgnored(rules, 'src/gen', true), 'a leading slash anchors to the root');
  t.ok(isIgnored(rules, 'docs/api', true));
  t.notOk(isIgnored(rules, 'docs/api', false), 'a trailing slash matches directories only');
  t.notOk(isIgnored(rules, 'out', true), 'a later negation wins');
  t.ok(isIgnored(rules, 'x.ts', false));
  t.notOk(isIgnored(rules, 'a/keep.ts', false));
});

t.test('globs: ?, [..], ** and escapes', async (t) => {
  const rules = parseIgnoreRules('file?.txt\n[ab]x\n**/cache\nlogs/**\na/**/z\n\\#lit\n', '');
  t.ok(isIgnored(rules, 'file1.txt', false));
  t.notOk(isIgnored(rules, 'file10.txt', false));
  t.ok(isIgnored(rules, 'ax', false));
  t.notOk(isIgnored(rules, 'cx', false));
  t.ok(isIgnored(rules, 'p/q/cache', true));
  t.ok(isIgnored(rules, 'cache', true));
  t.ok(isIgnored(rules, 'logs/x/y', false));
  t.ok(isIgnored(rules, 'a/z', true));
  t.ok(isIgnored(rules, 'a/b/c/z', true));
  t.ok(isIgnored(rules, '#lit', false));
});

t.test('a nested .gitignore applies below its own directory only', async (t) => {
  const rules = parseIgnoreRules('/local\n*.tmp\n', 'pkg');
  t.ok(isIgnored(rules, 'pkg/local', true));
  t.ok(isIgnored(rules, 'pkg/a/b.tmp', false));
  t.notOk(isIgnored(rules, 'local', true));
  t.notOk(isIgnored(rules, 'other/b.tmp', false));
  t.notOk(isIgnored(rules, 'pkg2/b.tmp', false));
});
