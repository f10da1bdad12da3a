// Checks issue 5 "Tracked directories: .gitignore rules ... are skipped" with the rules the
// scopes now read through lib/core/sources/gitignore.ts (issue 12 item 7: one gitignore
// implementation): git's pattern syntax — comments, negation (last match wins),
// directory-only, anchoring, globs, escapes, nesting — as the scope walk and fingerprint
// use it, and the precedence of the root's three rule sources (.gitignore, .contextignore,
// the config's list), read by loadProjectConfig.
import t from 'tap';
import { IgnoreStack } from '../../../lib/core/sources/gitignore.js';
import { loadProjectConfig, rulesForScope } from '../../../lib/core/scopes/project-config.js';

const rootRules = (text: string): IgnoreStack => IgnoreStack.empty().with('', text);

t.test('unanchored patterns match the name at any depth', async (t) => {
  const rules = rootRules('# comment\n\n*.log\ntmp\n');
  t.ok(rules.ignores('debug.log', false));
  t.ok(rules.ignores('a/b/debug.log', false));
  t.ok(rules.ignores('a/tmp', true));
  t.notOk(rules.ignores('a/b.ts', false));
  t.notOk(rules.ignores('# comment', false));
});

t.test('anchored patterns, directory-only patterns, negation', async (t) => {
  const rules = rootRules('/gen\ndocs/api/\nout/\n!out\n*.ts\n!keep.ts\n');
  t.ok(rules.ignores('gen', true));
  t.notOk(rules.ignores('src/gen', true), 'a leading slash anchors to the root');
  t.ok(rules.ignores('docs/api', true));
  t.notOk(rules.ignores('docs/api', false), 'a trailing slash matches directories only');
  t.notOk(rules.ignores('out', true), 'a later negation wins');
  t.ok(rules.ignores('x.ts', false));
  t.notOk(rules.ignores('a/keep.ts', false));
});

t.test('globs: ?, [..], ** and escapes', async (t) => {
  const rules = rootRules('file?.txt\n[ab]x\n**/cache\nlogs/**\na/**/z\n\\#lit\n');
  t.ok(rules.ignores('file1.txt', false));
  t.notOk(rules.ignores('file10.txt', false));
  t.ok(rules.ignores('ax', false));
  t.notOk(rules.ignores('cx', false));
  t.ok(rules.ignores('p/q/cache', true));
  t.ok(rules.ignores('cache', true));
  t.ok(rules.ignores('logs/x/y', false));
  t.ok(rules.ignores('a/z', true));
  t.ok(rules.ignores('a/b/c/z', true));
  t.ok(rules.ignores('#lit', false));
});

t.test('a nested .gitignore applies below its own directory only', async (t) => {
  const rules = IgnoreStack.empty().with('pkg', '/local\n*.tmp\n');
  t.ok(rules.ignores('pkg/local', true));
  t.ok(rules.ignores('pkg/a/b.tmp', false));
  t.notOk(rules.ignores('local', true));
  t.notOk(rules.ignores('other/b.tmp', false));
  t.notOk(rules.ignores('pkg2/b.tmp', false));
});

t.test('root rule sources in order: .gitignore, .contextignore, the config list; nested files deeper', async (t) => {
  const dir = t.testdir({
    '.gitignore': '*.log\nsecret.txt\n',
    '.contextignore': '!keep.log\ngen/\n',
    '.context.config.yaml': 'ignore:\n  - "*.bak"\n  - "!keep.bak"\n',
    pkg: { '.gitignore': '!secret.txt\n*.tmp\n' },
  });
  const config = loadProjectConfig(dir);
  const root = rulesForScope(dir, config, '.');
  t.ok(root.ignores('debug.log', false), '.gitignore');
  t.notOk(root.ignores('keep.log', false), '.contextignore re-includes what .gitignore excluded');
  t.ok(root.ignores('gen', true), '.contextignore');
  t.ok(root.ignores('gen/x.ts', false), 'a file under an excluded directory stays excluded (git: "not possible to re-include")');
  t.ok(root.ignores('x.bak', false), 'the config list');
  t.notOk(root.ignores('keep.bak', false), 'the config list negates its own rule');
  t.notOk(root.ignores('pkg/a.tmp', false), "pkg's .gitignore is not read for the root scope");
  const pkg = rulesForScope(dir, config, 'pkg');
  t.ok(pkg.ignores('pkg/a.tmp', false), "pkg's own .gitignore below pkg");
  t.notOk(pkg.ignores('pkg/secret.txt', false), 'a deeper file re-includes');
  t.ok(pkg.ignores('secret.txt', false), '... only below its own directory');
  t.ok(pkg.ignores('pkg/debug.log', false), 'root rules still apply below');
});
