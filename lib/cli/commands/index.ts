// The CLI's command table, in the order `context --help` lists them.

import type { Command } from '../command.js';

export const COMMANDS: readonly Command[] = [];
