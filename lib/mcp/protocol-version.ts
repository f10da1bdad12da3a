// MCP protocol version negotiation (lifecycle, "Version Negotiation"): the server answers
// the client's version when it supports it, otherwise its newest. Batches of JSON-RPC
// messages exist only in the versions before 2025-06-18, which removed them.

/** Supported versions, newest first. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = PROTOCOL_VERSIONS[0];

export function negotiateVersion(requested: string): ProtocolVersion {
  const found = PROTOCOL_VERSIONS.find((v) => v === requested);
  return found ?? LATEST_PROTOCOL_VERSION;
}

/** Whether a JSON array of messages is accepted under this version. */
export function acceptsBatches(version: ProtocolVersion): boolean {
  return version === '2025-03-26' || version === '2024-11-05';
}
