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
  help: {
    about:
      'Re-checks every citation and structure claim in a document, in every Markdown file under a folder, or in inline text, against the workspace as it is now. A citation whose lines merely moved is reported with where they went (moved_to), ready to paste.',
    options: [
      ['--root R', 'The workspace root the tokens\' paths are relative to.'],
      ['--in-path FILE-OR-DIR', 'A document, or a folder: every .md/.markdown file under it (not .git or node_modules). Give this or --text.'],
      ['--text T', 'Inline text holding the tokens. Give this or --in-path.'],
    ],
    examples: [
      'context verify-claims --root . --in-path docs',
      'context verify-claims --root . --text "see [[vctx-exists-file:README.md]]"',
    ],
    output:
      'stdout: {"ok","total","ok_count","fail_count","results":[...]} (or "files" for a folder). stdout: one line of JSON (the MCP tool\'s text), whatever the outcome. Exit 0 when everything held, 8 when a claim failed or was refused, 1 for invalid input or a bad command line.',
  },
  run(argv, io) {
    const { values } = parseFlags(argv, { strings: ['root', 'in-path', 'text'] });
    const args = { root: values['root'], in_path: values['in-path'], text: values['text'] };
    return printOutcome(verifyClaims, verifyOutcome(args, { base: io.cwd }), io);
  },
};
