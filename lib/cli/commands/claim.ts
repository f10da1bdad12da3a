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
  help: {
    about:
      'Makes a structure claim about a path, [[vctx-KIND:PATH]]: that it exists, is a file, is a directory, or is missing. The claim is normalised, not checked: verify-claims checks it.',
    options: [
      ['--root R', 'The workspace root the path is relative to.'],
      ['--kind exists|exists-file|exists-dir|missing', 'What the claim asserts: exists (anything, a symlink included), exists-file (a regular file), exists-dir (a directory), missing (nothing there).'],
      ['--path P', 'The path, relative to the root; for exists-dir a trailing / is kept.'],
    ],
    examples: [
      'context claim --root . --kind exists-dir --path lib/core/',
      'context claim --root . --kind missing --path lib/old.ts',
    ],
    output:
      'stdout: {"ok":true,"claim":...,"kind":...,"normalized_path":...} or {"ok":false,"reason":...}. stdout: one line of JSON (the MCP tool\'s text), whatever the outcome. Exit 0 when everything held, 8 when a claim failed or was refused, 1 for invalid input or a bad command line.',
  },
  run(argv, io) {
    const { values } = parseFlags(argv, { strings: ['root', 'kind', 'path'] });
    const args = { root: values['root'], kind: values['kind'], path: values['path'] };
    return printOutcome(claim, claimOutcome(args, { base: io.cwd }), io);
  },
};
