// `context` entry: picks the subcommand, handles --help / --version, returns the exit code.
// Only bin/context touches the real process; everything here works on injected streams.

import { EXIT_USAGE } from '../errors.js';
import { VERSION } from '../version.js';
import { helpText, runGuarded, type CliIo } from './command.js';
import { COMMANDS } from './commands/index.js';
import { guardOutput } from './output-guard.js';

async function topUsage(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: context <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'context help <command> (or context <command> --help) explains every option of a command,',
    'with examples; context --version prints the version.',
    '',
  ].join('\n');
}

/**
 * Runs one command line and returns its exit code once its output is flushed. With real
 * streams (io.stdoutStream), a closed stdout leaves the code as it is and a failed write
 * (full disk) makes it 6; neither ever ends the process with a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (io.stdoutStream === undefined) return dispatch(argv, io);
  const guard = guardOutput(io.stdoutStream, io.stderrStream);
  return guard.finish(await dispatch(argv, io), io.stderr);
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) return help(rest, io);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === undefined) {
      io.stderr(await topUsage());
      return EXIT_USAGE;
    }
    io.stdout(await topUsage());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`context ${VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined) {
    io.stderr(`context: unknown command "${name}"\n${await topUsage()}`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
  return runGuarded(command, rest, io);
}

/** `context help COMMAND`: that command's help on stdout (`help scope init` works too). */
async function help(args: readonly string[], io: CliIo): Promise<number> {
  const [name, ...more] = args;
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined || (more.length > 0 && !(name === 'scope' && more.length === 1 && more[0] === 'init'))) {
    io.stderr(`context help: unknown command "${args.join(' ')}"\n${await topUsage()}`);
    return EXIT_USAGE;
  }
  io.stdout(helpText(await entry.load()));
  return 0;
}
