// Writes dist/ranks/<encoding>.ranks for o200k_base and cl100k_base: each encoding's tokens,
// their bytes in rank order, taken from gpt-tokenizer's own table (the package the counts are
// checked against), in the format lib/core/tokens/rank-table.ts reads. The counter loads that
// file in a few ms instead of the package's ~140 ms (docs/engine.md "Ranks that load in
// milliseconds"). The same package version writes the same bytes. Run by `npm run build`
// after tsc (it reads the compiled RankTable and packageTokens from dist/).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const { RankTable } = await import(new URL('../dist/core/tokens/rank-table.js', import.meta.url).href);
const { packageTokens } = await import(new URL('../dist/core/tokens/count.js', import.meta.url).href);

mkdirSync(`${dist}ranks`, { recursive: true });
for (const name of ['o200k_base', 'cl100k_base']) {
  const tokens = packageTokens(require(`gpt-tokenizer/cjs/encoding/${name}`));
  if (tokens === null) throw new Error(`rank-tables: gpt-tokenizer's ${name} does not hold its ranks as expected (another version?)`);
  const bytes = RankTable.toBytes(tokens);
  RankTable.fromBytes(bytes); // every token distinct, the file well formed: else this throws
  const file = `${dist}ranks/${name}.ranks`;
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}
