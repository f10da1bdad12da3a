// `context claim --root R --kind K --path P`: a structure claim [[vctx-K:P]] with P
// normalised (not checked), as JSON on stdout (the `context.claim` tool's text exactly).

import { claimOutcome } from '../../core/citations/outcome.js';
import { parseFlags } from '../args.js';
import { printOutcome } from '../citation-status.js';
import type { Command } from '../command.js';

export const claim: Command = {
  name: 'claim',
  summary: 'Make a structure claim: [[vctx-exists|exists-file|exists-dir|missing:PATH]]',
  usage: 'context claim --root R --kind exists|exists-file|exists-dir|missing --path P',
  run(argv, io) {
    const { values } = parseFlags(argv, { strings: ['root', 'kind', 'path'] });
    const args = { root: values['root'], kind: values['kind'], path: values['path'] };
    return printOutcome(claim, claimOutcome(args, { base: io.cwd }), io);
  },
};
