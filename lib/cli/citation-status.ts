// Exit codes of the citation commands (cite, claim, verify-claims). Their JSON goes to stdout
// whatever the status (a failed verification's report is the output), a note to stderr:
// 0 everything held, 8 a claim failed or was refused, 1 invalid_input or a bad command line.

import { EXIT_ANSWER_FAILED, EXIT_USAGE } from '../errors.js';
import type { CitationOutcome } from '../core/citations/outcome.js';
import type { CliIo, Command } from './command.js';

/** Prints the outcome's text (the MCP tool's text, byte for byte) and returns the exit code. */
export function printOutcome(command: Command, outcome: CitationOutcome, io: CliIo): number {
  io.stdout(outcome.text);
  switch (outcome.status) {
    case 'ok':
      return 0;
    case 'failed':
      io.stderr(`context ${command.name}: ${outcome.note}\n`);
      return EXIT_ANSWER_FAILED; // a citation, claim or verification failed
    case 'invalid_input':
      io.stderr(`context ${command.name}: invalid_input\nusage: ${command.usage}\n`);
      return EXIT_USAGE;
  }
}
