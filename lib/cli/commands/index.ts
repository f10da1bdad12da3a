// The CLI's command table, in the order `context --help` lists them.

import type { Command } from '../command.js';
import { build } from './build.js';
import { cite } from './cite.js';
import { claim } from './claim.js';
import { inspect } from './inspect.js';
import { listCaches } from './list-caches.js';
import { mcp } from './mcp.js';
import { resolve } from './resolve.js';
import { verify } from './verify.js';
import { verifyClaims } from './verify-claims.js';
import { scopes } from './scopes.js';
import { freshness } from './freshness.js';
import { show } from './show.js';
import { rehash } from './rehash.js';

export const COMMANDS: readonly Command[] = [
  build,
  resolve,
  inspect,
  verify,
  listCaches,
  mcp,
  cite,
  claim,
  verifyClaims,
  scopes,
  freshness,
  show,
  rehash,
];
