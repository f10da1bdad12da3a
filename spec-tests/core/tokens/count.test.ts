// Checks lib/core/tokens/count.ts (a build option recorded in the cache: "bytes4 is v0's rule
// (ceil(UTF-8 bytes / 4)); o200k_base and cl100k_base are OpenAI's encodings, counted exactly
// by gpt-tokenizer ... Special-token text such as "<|endoftext|>" counts as ordinary text").
import t from 'tap';
import { isTokenizerName, loadTokenCounter, TOKENIZERS } from '../../../lib/core/tokens/count.js';

t.test('count.ts: bytes4 is v0\'s ceil(UTF-8 bytes / 4)', async (t) => {
  const count = await loadTokenCounter('bytes4');
  for (const [text, bytes] of [['', 0], ['a', 1], ['abcd', 4], ['abcde', 5], ['é', 2], ['日本語', 9], ['😀', 4], ['😀x', 5]] as const) {
    t.equal(count(text), Math.ceil(bytes / 4), `${JSON.stringify(text)}: ${bytes} bytes`);
  }
});

t.test('count.ts: o200k_base and cl100k_base count BPE tokens; special-token text is ordinary text', async (t) => {
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const count = await loadTokenCounter(name);
    t.equal(count(''), 0, `${name}: empty text is 0 tokens`);
    t.equal(count('hello world'), 2, `${name}: "hello" + " world"`);
    t.equal(count('Hello, world!'), 4, `${name}: "Hello" "," " world" "!"`);
    t.ok(count('<|endoftext|>') > 1, `${name}: <|endoftext|> is several ordinary tokens, not one control token`);
  }
  t.not((await loadTokenCounter('o200k_base'))('naïve café 日本語'), (await loadTokenCounter('cl100k_base'))('naïve café 日本語'), 'two different encodings');
});

t.test('count.ts: the tokenizer names', async (t) => {
  t.same(TOKENIZERS, ['bytes4', 'o200k_base', 'cl100k_base']);
  t.equal(isTokenizerName('o200k_base'), true);
  t.equal(isTokenizerName('gpt2'), false);
  t.equal(isTokenizerName('BYTES4'), false, 'exact spelling');
});
