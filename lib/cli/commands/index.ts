// The CLI's command table, in the order `context --help` lists them. Each command's module
// is imported only when that command runs (or for --help): a one-shot `resolve` should not
// pay for loading the MCP server, the YAML parser and the citation engine.

import type { Command } from '../command.js';

export interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'build', load: async () => (await import('./build.js')).build },
  { name: 'resolve', load: async () => (await import('./resolve.js')).resolve },
  { name: 'inspect', load: async () => (await import('./inspect.js')).inspect },
  { name: 'verify', load: async () => (await import('./verify.js')).verify },
  { name: 'list-caches', load: async () => (await import('./list-caches.js')).listCaches },
  { name: 'status', load: async () => (await import('./status.js')).status },
  { name: 'mcp', load: async () => (await import('./mcp.js')).mcp },
  { name: 'cite', load: async () => (await import('./cite.js')).cite },
  { name: 'claim', load: async () => (await import('./claim.js')).claim },
  { name: 'verify-claims', load: async () => (await import('./verify-claims.js')).verifyClaims },
  { name: 'scopes', load: async () => (await import('./scopes.js')).scopes },
  { name: 'freshness', load: async () => (await import('./freshness.js')).freshness },
  { name: 'show', load: async () => (await import('./show.js')).show },
  { name: 'rehash', load: async () => (await import('./rehash.js')).rehash },
  { name: 'scope', load: async () => (await import('./scope.js')).scope },
];
