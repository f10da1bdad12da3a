// Serve while rebuilding (issue 11 item 4), per engine: one `context mcp` answers
// context.resolve in a loop while the cache it reads is rebuilt (--force) N times,
// alternating two corpora. Every answer must be byte-identical to what the CLI prints for
// one corpus or the other — never an error, never a mixture. Counted, not sampled.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildOrThrow, stagingEntries } from './builds.js';
import { minimalEnv, runContext } from './child.js';
import { startClient } from './mcp-client.js';
import { writeCorpus } from './corpus.js';
import type { Engine } from './engines.js';
import { thousands, type Report } from './figures.js';
import type { WorkDir } from './workdir.js';

export interface ServeOptions {
  readonly engines: readonly Engine[];
  readonly rebuilds: number;
  readonly documents: number;
}

const QUERY = 'alphacorpus betacorpus deployment rollback';
const BUDGET = 3000;

export async function serveRebuildSoak(work: WorkDir, report: Report, options: ServeOptions): Promise<void> {
  const sources = work.path('serve', 'sources');
  const a = join(sources, 'a');
  const b = join(sources, 'b');
  writeCorpus(a, { documents: options.documents, bytes: 2000, seed: 31, marker: 'alphacorpus' });
  writeCorpus(b, { documents: options.documents, bytes: 2000, seed: 32, marker: 'betacorpus' });
  for (const engine of options.engines) {
    const suite = `serve ${engine}`;
    const base = work.path('serve', engine);
    const root = join(base, 'caches');
    mkdirSync(root, { recursive: true });
    // What the CLI prints for each corpus: every answer must be exactly one of these.
    const expected = new Map<string, string>();
    for (const [name, dir] of [['a', a], ['b', b]] as const) {
      const ref = join(base, `ref-${name}`);
      await buildOrThrow(engine, dir, ref, false, base);
      const r = await runContext(['resolve', '--cache', ref, '--query', QUERY, '--budget', String(BUDGET)], { cwd: base, env: minimalEnv(base) });
      if (r.code !== 0) throw new Error(`resolve on ${ref}: ${r.stderr}`);
      expected.set(r.stdout, name);
    }
    const cache = join(root, 'live');
    await buildOrThrow(engine, a, cache, false, base);
    const server = startClient(['--cache-root', root], base);
    await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
    const counts = { a: 0, b: 0, error: 0, other: 0 };
    const samples: string[] = [];
    let rebuilding = true;
    let rebuildFailures = 0;
    const rebuilds = (async () => {
      for (let i = 0; i < options.rebuilds; i++) {
        await buildOrThrow(engine, i % 2 === 0 ? b : a, cache, true, base).catch(() => void rebuildFailures++);
      }
      rebuilding = false;
    })();
    while (rebuilding) {
      const { text, isError } = await server.callTool('context.resolve', { cache: 'live', query: QUERY, budget: BUDGET });
      const from = expected.get(text);
      if (isError) {
        counts.error++;
        if (samples.length < 3) samples.push(text.trim().slice(0, 160));
      } else if (from === 'a') counts.a++;
      else if (from === 'b') counts.b++;
      else counts.other++;
    }
    await rebuilds;
    const closed = await server.close();
    const total = counts.a + counts.b + counts.error + counts.other;
    report.check(
      suite,
      counts.error === 0 && counts.other === 0 && rebuildFailures === 0 && counts.a > 0 && counts.b > 0,
      `${thousands(total)} resolve calls while the cache was rebuilt ${options.rebuilds} times: from corpus A ${thousands(counts.a)}, from corpus B ${thousands(counts.b)}, errors ${counts.error}, mixtures ${counts.other}${samples.length > 0 ? ` (first: ${samples.join(' | ')})` : ''}; failed rebuilds ${rebuildFailures}`,
    );
    report.check(suite, closed.code === 0 && closed.stderr === '' && stagingEntries(cache).length === 0, `server exit ${closed.code ?? '?'}, stderr bytes ${closed.stderr.length}, staging directories left ${stagingEntries(cache).length}`);
  }
}
