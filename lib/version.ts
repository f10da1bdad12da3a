// The engine's version, reported by `context --version` and the MCP serverInfo.
export const VERSION = '0.1.0';
