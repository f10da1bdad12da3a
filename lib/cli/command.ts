// The shape of one CLI subcommand, and the one place a thrown error becomes stderr text
// and an exit code. Commands write stdout once, only on success (cli_spec: "on error
// nothing is written to stdout").

import { ContextError, EXIT_USAGE, exitCodeOf, toContextError } from '../errors.js';
import { renderHelp, type CommandHelp } from './help.js';
import { inUserTerms } from './user-paths.js';

/** Process streams and environment, injected so tests need no child process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Standard input, for long-running commands (`context mcp`). */
  readonly stdin?: NodeJS.ReadableStream;
  /** Raw standard output stream, for long-running commands (`context mcp`). */
  readonly stdoutStream?: NodeJS.WritableStream;
  /** Raw standard error stream: only so that its failures can be silenced. */
  readonly stderrStream?: NodeJS.WritableStream;
  /** Whether stderr is a terminal: only then may a command draw progress on it. */
  readonly stderrIsTTY?: boolean;
  /** The terminal's width, when stderr is one. */
  readonly stderrColumns?: number | undefined;
  /** A monotonic clock in milliseconds (progress rates); default performance.now. */
  readonly clock?: () => number;
}

export interface Command {
  readonly name: string;
  /** One line for `context --help`. */
  readonly summary: string;
  /** The usage line, printed after a usage error and atop the help. */
  readonly usage: string;
  /** `context help NAME` / `NAME --help`: every option explained, with examples. */
  readonly help: CommandHelp;
  run(argv: readonly string[], io: CliIo): number | Promise<number>;
}

/** A bad command line: exit 1 with a short usage line (cli_spec "Exit Codes"). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--help` among a command's options: print its help on stdout and exit 0. */
export class HelpRequested extends Error {
  constructor() {
    super('help requested');
    this.name = 'HelpRequested';
  }
}

/** What `context help NAME` and `context NAME --help` print. */
export function helpText(command: Command): string {
  return renderHelp(command.usage, command.help);
}

/** Runs a command body, converting every failure exactly once. */
export async function runGuarded(command: Command, argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await command.run(argv, io);
  } catch (err) {
    if (err instanceof HelpRequested) {
      io.stdout(helpText(command));
      return 0;
    }
    if (err instanceof UsageError) {
      io.stderr(`context ${command.name}: ${err.message}\nusage: ${command.usage}\n`);
      return EXIT_USAGE;
    }
    const e: ContextError = toContextError(err);
    // What failed and what to do, with the paths as the user gave them (never in the error object).
    const detail = e.detail === undefined ? '' : ` (${inUserTerms(e.detail, argv, io.cwd)})`;
    io.stderr(`error: ${e.code}: ${e.message}${detail}\n`);
    return exitCodeOf(e.code);
  }
}
