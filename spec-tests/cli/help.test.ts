// Checks issue 12 item 9 "Help that helps: `context help COMMAND` and `COMMAND --help`
// explain every option with an example": for every command both spellings print the same
// help on stdout (exit 0); every option of the usage line is explained, and appears in at
// least one example; every example calls the command it documents; no prose line runs past
// 88 columns unless a single word is longer.
import t from 'tap';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';
import { COMMANDS } from '../../lib/cli/commands/index.js';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (s) => void (out += s), stderr: (s) => void (err += s), env: {}, cwd: process.cwd() };
  return { code: await main(argv, io), out, err };
}

const flagsIn = (text: string): string[] => [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();

t.test('every command: help COMMAND = COMMAND --help, every option explained and exemplified', async (t) => {
  t.ok(COMMANDS.length >= 14, `${COMMANDS.length} commands`);
  for (const entry of COMMANDS) {
    const command = await entry.load();
    const viaHelp = await run(['help', command.name]);
    const viaFlag = await run(command.name === 'scope' ? ['scope', 'init', '--help'] : [command.name, '--help']);
    t.same(viaHelp, { code: 0, out: viaFlag.out, err: '' }, `${command.name}: both spellings, exit 0, stdout only`);
    t.ok(viaHelp.out.startsWith(`usage: ${command.usage}\n\n`), `${command.name}: opens with the usage line`);
    const usageFlags = flagsIn(command.usage);
    const optionFlags = command.help.options.map(([spelling]) => (/^--[a-z-]+/.exec(spelling) ?? [''])[0]).sort();
    t.same(optionFlags, usageFlags, `${command.name}: the options explained are the usage line's`);
    for (const [spelling, meaning] of command.help.options) {
      t.ok(meaning.length >= 20, `${command.name} ${spelling}: a real explanation`);
      t.ok(viaHelp.out.includes(`  ${spelling}`), `${command.name} ${spelling}: printed`);
    }
    const exampleFlags = new Set(command.help.examples.flatMap(flagsIn));
    for (const flag of usageFlags) t.ok(exampleFlags.has(flag), `${command.name} ${flag}: used in an example`);
    const invocation = command.name === 'scope' ? 'context scope init ' : `context ${command.name} `;
    for (const example of command.help.examples) {
      t.ok(example.replace(/^([A-Z_]+=\S+ )+/, '').startsWith(invocation), `${command.name}: example "${example}" calls it`);
    }
    t.match(viaHelp.out, /\n\nexamples:\n {2}context /, `${command.name}: an examples section`);
    // Prose is wrapped; the usage line and the examples are printed as they must be typed.
    const verbatim = new Set([...command.usage.split('\n').map((l, i) => (i === 0 ? `usage: ${l}` : l)), ...command.help.examples.map((e) => `  ${e}`)]);
    for (const line of viaHelp.out.split('\n')) {
      if (line.length > 88 && !verbatim.has(line)) t.notMatch(line.trim(), / /, `${command.name}: only an unbreakable word may pass 88 columns: ${line}`);
    }
  }
});

t.test('help without a command is the command list; an unknown command is a usage error', async (t) => {
  const list = await run(['help']);
  t.equal(list.code, 0);
  t.match(list.out, /^usage: context <command> \[options\]\n/);
  t.match(list.out, /context help <command> \(or context <command> --help\) explains every option/);
  for (const argv of [['help', 'nope'], ['help', 'resolve', 'extra'], ['help', 'scope', 'other']]) {
    const r = await run(argv);
    t.equal(r.code, 1, argv.join(' '));
    t.equal(r.out, '', `${argv.join(' ')}: nothing on stdout`);
    t.match(r.err, /^context help: unknown command/);
  }
  const scopeInit = await run(['help', 'scope', 'init']);
  t.equal(scopeInit.code, 0, 'help scope init names the subcommand too');
  t.match(scopeInit.out, /^usage: context scope init /);
});
