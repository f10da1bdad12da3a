// `context verify-claims --root R (--in-path F | --text T)`: re-checks every citation and
// structure claim in a document, a directory of Markdown files, or inline text; JSON on
// stdout (the `context.verify_workspace` tool's text exactly), exit 0 only if all held.

import { verifyOutcome } from '../../core/citations/outcome.js';
import { parseFlags } from '../args.js';
import { printOutcome } from '../citation-status.js';
import type { Command } from '../command.js';

export const verifyClaims: Command = {
  name: 'verify-claims',
  summary: 'Verify every citation and structure claim in a document, folder or text',
  usage: 'context verify-claims --root R (--in-path FILE-OR-DIR | --text T)',
  run(argv, io) {
    const { values } = parseFlags(argv, { strings: ['root', 'in-path', 'text'] });
    const args = { root: values['root'], in_path: values['in-path'], text: values['text'] };
    return printOutcome(verifyClaims, verifyOutcome(args, { base: io.cwd }), io);
  },
};
