// Checks the house rule of README "Layout" (and DESIGN.md "Layers"): in lib/, imports only
// point down from floor to floor (faces -> operations -> engines -> store -> libraries ->
// base) and no two folders import each other, through scripts/check-layers.mjs, which
// `npm test` thereby runs. The checker itself is tried on small trees that break each rule.
import t from 'tap';
import { REPO } from '../mcp/spawn-server.js';

const { checkLayers, FLOORS } = (await import(`${REPO}/scripts/check-layers.mjs`)) as {
  checkLayers: (root: string) => { folders: Set<string>; edges: Map<string, Set<string>>; problems: string[] };
  FLOORS: [string, string[]][];
};

t.test('lib/ as it stands: every folder has a floor, no edge climbs one, no cycle', async (t) => {
  const { folders, edges, problems } = checkLayers(REPO);
  t.same(problems, [], 'no problems');
  t.ok(folders.has('lib/core/engine/v0') && folders.has('lib/core/engine/v1'), 'the two engines sit side by side');
  t.ok(folders.has('lib/core/store') && folders.has('lib/core/operations'), 'shared machinery below, operations above');
  t.notOk(folders.has('lib/core/cache') || folders.has('lib/core/selection'), 'the old rooms are gone');
  t.ok(edges.size > 20, 'the graph was read');
  t.notOk([...edges.keys()].some((k) => k.startsWith('lib -> ')), 'lib/json.ts and its neighbours import nothing above them');
});

const floorNames = (): string[] => FLOORS.map(([name]) => name);

t.test('the checker: an import up a floor is reported', async (t) => {
  const root = t.testdir({
    lib: {
      'json.ts': "import { x } from './core/engine/v0/select.js';\nexport const y = x;\n",
      core: { engine: { v0: { 'select.ts': 'export const x = 1;\n' } } },
    },
  });
  const { problems } = checkLayers(root);
  t.match(problems, [/^up a floor: lib -> lib\/core\/engine\/v0 \(base -> engines; json\.ts\)$/]);
  t.same(floorNames()[0], 'faces');
});

t.test('the checker: two folders importing each other are a cycle; a parent interface is not an edge', async (t) => {
  const root = t.testdir({
    lib: {
      core: {
        analysis: { 'a.ts': "import { b } from '../index/b.js';\nexport const a = b;\n" },
        index: { 'b.ts': "export const b = 1;\nexport { a } from '../analysis/a.js';\n" },
        engine: { 'engine.ts': 'export const e = 1;\n', v1: { 'x.ts': "import { e } from '../engine.js';\nexport const x = e;\n" } },
      },
    },
  });
  const { problems, edges } = checkLayers(root);
  t.same(problems, ['cycle: lib/core/analysis <-> lib/core/index']);
  t.notOk(edges.has('lib/core/engine/v1 -> lib/core/engine'), 'v1 using engine.ts is not an edge');
});

t.test('the checker: a folder with no floor is reported', async (t) => {
  const root = t.testdir({ lib: { core: { attic: { 'old.ts': 'export const o = 1;\n' } } } });
  t.same(checkLayers(root).problems, ['no floor: lib/core/attic (add it to FLOORS in scripts/check-layers.mjs)']);
});
