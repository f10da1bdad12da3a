// Exit codes of the citation commands (cite, claim, verify-claims). Their JSON is printed
// on stdout whatever the status, because a failed verification's report is the output:
// 0 everything held, 8 a claim failed or was refused, 9 invalid_input (usage errors stay 1).

import type { CitationOutcome } from '../core/citations/outcome.js';
import type { CliIo } from './command.js';

/** A citation, claim or verification failed (`{"ok":false,...}` on stdout). */
export const EXIT_CLAIM_FAILED = 8;
/** The arguments did not form a request (`{"ok":false,"reason":"invalid_input"}` on stdout). */
export const EXIT_INVALID_INPUT = 9;

/** Prints the outcome's text (the MCP tool's text, byte for byte) and returns the exit code. */
export function printOutcome(outcome: CitationOutcome, io: CliIo): number {
  io.stdout(outcome.text);
  switch (outcome.status) {
    case 'ok':
      return 0;
    case 'failed':
      return EXIT_CLAIM_FAILED;
    case 'invalid_input':
      return EXIT_INVALID_INPUT;
  }
}
