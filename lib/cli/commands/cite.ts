// `context cite --root R --path P --start-line A --end-line B`: a verifiable citation of
// lines A..B of P under R, as JSON on stdout (the `context.cite` tool's text exactly).

import { citeOutcome } from '../../core/citations/outcome.js';
import { parseFlags } from '../args.js';
import { printOutcome } from '../citation-status.js';
import type { Command } from '../command.js';

export const cite: Command = {
  name: 'cite',
  summary: 'Cite a line span of a file as [[vctx:PATH#LA-LB@HASH8]]',
  usage: 'context cite --root R --path P --start-line A --end-line B',
  help: {
    about:
      'Makes a verifiable citation of lines START..END of a file: the token [[vctx:PATH#LSTART-LEND@HASH8]], where HASH8 is the start of the SHA-256 of those lines. Paste it into a document; verify-claims later tells whether the lines still say the same.',
    options: [
      ['--root R', 'The workspace root; PATH is taken relative to it, and nothing outside it is read.'],
      ['--path P', 'The file to cite, relative to the root.'],
      ['--start-line A', 'First line of the span, 1-based.'],
      ['--end-line B', 'Last line of the span, inclusive (at least A, at most the line count).'],
    ],
    examples: [
      'context cite --root . --path lib/errors.ts --start-line 7 --end-line 14',
    ],
    output:
      'stdout: {"ok":true,"citation":...,"sha256_full":...} or {"ok":false,"reason":...}. stdout: one line of JSON (the MCP tool\'s text), whatever the outcome. Exit 0 when everything held, 8 when a claim failed or was refused, 1 for invalid input or a bad command line.',
  },
  run(argv, io) {
    const { values } = parseFlags(argv, { strings: ['root', 'path', 'start-line', 'end-line'] });
    const args = { root: values['root'], path: values['path'], start_line: values['start-line'], end_line: values['end-line'] };
    return printOutcome(cite, citeOutcome(args, { base: io.cwd }), io);
  },
};
