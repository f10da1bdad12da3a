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
  run(argv, io) {
    const { values } = parseFlags(argv, { strings: ['root', 'path', 'start-line', 'end-line'] });
    const args = { root: values['root'], path: values['path'], start_line: values['start-line'], end_line: values['end-line'] };
    return printOutcome(cite, citeOutcome(args, { base: io.cwd }), io);
  },
};
