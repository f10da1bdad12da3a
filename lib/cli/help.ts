// A command's help as `context help COMMAND` and `context COMMAND --help` print it: the
// usage line, what the command does, every option with its meaning, examples to paste, and
// what it prints and exits with. Plain text, wrapped to 88 columns, no terminal codes.

export interface CommandHelp {
  /** What the command does and when to use it: a few sentences. */
  readonly about: string;
  /** Every option, spelled as in the usage line (`--cache DIR`), with its meaning. */
  readonly options: readonly (readonly [spelling: string, meaning: string])[];
  /** Command lines a reader can paste; together they use every option. */
  readonly examples: readonly string[];
  /** What goes to stdout and which exit codes mean what. */
  readonly output: string;
}

const WIDTH = 88;

/** Greedy word wrap; the first line gets `first`, the others `rest` as indent. */
function wrap(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

export function renderHelp(usage: string, help: CommandHelp): string {
  const width = Math.min(22, Math.max(...help.options.map(([s]) => s.length)) + 2);
  const out = [`usage: ${usage}`, '', ...wrap(help.about, '', ''), ''];
  if (help.options.length > 0) {
    out.push('options:');
    for (const [spelling, meaning] of help.options) {
      const head = `  ${spelling}`;
      const pad = ' '.repeat(width + 2);
      if (head.length + 2 <= width + 2) out.push(...wrap(meaning, head.padEnd(width + 2), pad));
      else out.push(head, ...wrap(meaning, pad, pad));
    }
    out.push('');
  }
  out.push('examples:', ...help.examples.map((e) => `  ${e}`), '', ...wrap(help.output, '', ''), '');
  return out.join('\n');
}
