// The CLI's command table, in the order `context --help` lists them.

import type { Command } from '../command.js';
import { build } from './build.js';
import { inspect } from './inspect.js';
import { listCaches } from './list-caches.js';
import { resolve } from './resolve.js';
import { verify } from './verify.js';

export const COMMANDS: readonly Command[] = [
  build,
  resolve,
  inspect,
  verify,
  listCaches,
];
