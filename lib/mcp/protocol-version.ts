// MCP protocol versions. The handshake era (2024-11-05 … 2025-11-25): `initialize` negotiates
// one version for the connection — the server answers the client's version when it supports
// it, otherwise its newest. The stateless era (2026-07-28): no handshake, every request names
// its version in `_meta` and an unsupported one is refused with -32022 (lib/mcp/envelope.ts).
// Batches of JSON-RPC messages exist only in the versions before 2025-06-18, which removed them.

/** Handshake-era versions, newest first. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** Stateless-era versions (per-request `_meta`), newest first: what server/discover advertises. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Any version a request may be served under. */
export type AnyProtocolVersion = ProtocolVersion | ModernProtocolVersion;

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = PROTOCOL_VERSIONS[0];

export function negotiateVersion(requested: string): ProtocolVersion {
  const found = PROTOCOL_VERSIONS.find((v) => v === requested);
  return found ?? LATEST_PROTOCOL_VERSION;
}

export function isModernVersion(version: string): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** Whether a JSON array of messages is accepted under this version. */
export function acceptsBatches(version: AnyProtocolVersion): boolean {
  return version === '2025-03-26' || version === '2024-11-05';
}
