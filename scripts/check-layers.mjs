#!/usr/bin/env node
// The house rule of lib/ (README "Layout"): imports only point down, floor by floor, and no
// two folders import each other. This lists the folder-level import graph (relative imports
// of .ts files; a folder is a file's directory) and fails when an edge climbs a floor, when
// folders form a cycle, or when a folder of lib/ has no floor below.
//
//   node scripts/check-layers.mjs          -> the floors, then "folders N, edges E, up 0, cycles 0"
//   node scripts/check-layers.mjs --edges  -> also every edge with the files behind it
//
// A sub-folder importing its parent's interface (mcp/tools -> mcp/tool.ts, engine/v1 ->
// engine/engine.ts) is not an edge. Exit 1 on any violation.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Top to bottom. A folder may import its own floor (no cycle) or any floor below it. */
export const FLOORS = [
  ['faces', ['lib/cli', 'lib/cli/commands', 'lib/mcp', 'lib/mcp/tools']],
  ['operations', ['lib/core/operations', 'lib/core/citations', 'lib/core/scopes']],
  ['engines', ['lib/core/engine', 'lib/core/engine/v0', 'lib/core/engine/v1']],
  ['store', ['lib/core/store']],
  ['libraries', ['lib/core/analysis', 'lib/core/index', 'lib/core/ranking', 'lib/core/tokens', 'lib/core/sources']],
  ['base', ['lib/core', 'lib', 'lib/types']],
];

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** { folders, edges: Map<"a -> b", files[]>, problems: string[] } for the project at `root`. */
export function checkLayers(root) {
  const floorOf = new Map();
  FLOORS.forEach(([, folders], i) => folders.forEach((f) => floorOf.set(f, i)));
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(path.join(root, 'lib'));
  files.sort(cmp);
  const rel = (p) => path.relative(root, p).split(path.sep).join('/');
  const folders = new Set(files.map((f) => rel(path.dirname(f))));
  const edges = new Map();
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8');
    for (const m of src.matchAll(/(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
      const a = rel(path.dirname(f));
      const b = rel(path.dirname(path.resolve(path.dirname(f), m[1] ?? m[2])));
      if (a === b || a.startsWith(b + '/')) continue;
      const key = `${a} -> ${b}`;
      if (!edges.has(key)) edges.set(key, new Set());
      edges.get(key).add(path.basename(f));
    }
  }
  const problems = [];
  for (const folder of [...folders].sort(cmp)) {
    if (!floorOf.has(folder)) problems.push(`no floor: ${folder} (add it to FLOORS in scripts/check-layers.mjs)`);
  }
  const graph = new Map();
  for (const key of [...edges.keys()].sort(cmp)) {
    const [a, b] = key.split(' -> ');
    if (floorOf.has(a) && floorOf.has(b) && floorOf.get(b) < floorOf.get(a)) {
      problems.push(`up a floor: ${key} (${FLOORS[floorOf.get(a)][0]} -> ${FLOORS[floorOf.get(b)][0]}; ${[...edges.get(key)].sort(cmp).join(', ')})`);
    }
    if (!graph.has(a)) graph.set(a, []);
    graph.get(a).push(b);
  }
  // Cycles: strongly connected components of more than one folder (Tarjan).
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set();
  const visit = (v) => {
    index.set(v, next); low.set(v, next); next++; stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) problems.push(`cycle: ${component.sort(cmp).join(' <-> ')}`);
    }
  };
  for (const v of [...folders].sort(cmp)) if (!index.has(v)) visit(v);
  return { folders, edges, problems };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { folders, edges, problems } = checkLayers(root);
  for (const [name, list] of FLOORS) console.log(`${name.padEnd(11)} ${list.join(' ')}`);
  if (process.argv.includes('--edges')) {
    for (const key of [...edges.keys()].sort(cmp)) console.log(`${key}  (${[...edges.get(key)].sort(cmp).join(', ')})`);
  }
  for (const p of problems) console.log(p);
  const up = problems.filter((p) => p.startsWith('up')).length;
  const cycles = problems.filter((p) => p.startsWith('cycle')).length;
  console.log(`folders ${folders.size}, edges ${edges.size}, up ${up}, cycles ${cycles}`);
  process.exit(problems.length > 0 ? 1 : 0);
}
