// Writes dist/ranks/<encoding>.ranks for o200k_base and cl100k_base: each encoding's tokens,
// their bytes in rank order, taken from gpt-tokenizer's own table (the package the counts are
// checked against), in the format lib/core/tokens/rank-table.ts reads. The counter loads that
// file in a few ms instead of the package's ~140 ms (docs/engine.md "Ranks that load in
// milliseconds"). The same package version writes the same bytes. Run by `npm run build`
// after tsc (it reads the compiled RankTable from dist/).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const { RankTable } = await import(new URL('../dist/core/tokens/rank-table.js', import.meta.url).href);
const utf8 = new TextEncoder();

mkdirSync(`${dist}ranks`, { recursive: true });
for (const name of ['o200k_base', 'cl100k_base']) {
  const core = require(`gpt-tokenizer/cjs/encoding/${name}`).default.bytePairEncodingCoreProcessor;
  const decoder = core.bytePairRankDecoder; // rank -> the token's text, or its bytes when they are not UTF-8
  const tokens = [];
  for (let r = 0; r < decoder.length; r++) {
    const v = decoder[r];
    tokens.push(v === undefined ? new Uint8Array(0) : typeof v === 'string' ? utf8.encode(v) : Uint8Array.from(v));
  }
  const bytes = RankTable.toBytes(tokens);
  RankTable.fromBytes(bytes); // every token distinct, the file well formed: else this throws
  const file = `${dist}ranks/${name}.ranks`;
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}
