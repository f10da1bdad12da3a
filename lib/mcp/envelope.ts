// The 2026-07-28 per-request envelope: every request carries, in `params._meta`, its protocol
// version (`io.modelcontextprotocol/protocolVersion`, required) and the client's capabilities
// for that request (`io.modelcontextprotocol/clientCapabilities`, required), optionally the
// client's identity. A request whose `_meta` holds the version key at all "claims" the
// stateless era — that is how one stdio stream tells the eras apart (docs/mcp.md "Two eras on
// one stream"), as the official SDK's stdio entry does. A claim is then checked: a missing or
// malformed required key is -32602; a version this server does not serve is -32022 with the
// supported list (specification 2026-07-28, "Versioning" and "General fields: _meta").

import { JSONRPC_ERRORS, MCP_ERRORS } from '../errors.js';
import { isPlainObject, RpcError } from './json-rpc.js';
import { isModernVersion, MODERN_PROTOCOL_VERSIONS, type ModernProtocolVersion } from './protocol-version.js';

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** Whether a request's params claim the stateless era (their `_meta` names a protocol version). */
export function claimsModernEra(params: unknown): boolean {
  if (!isPlainObject(params)) return false;
  const meta = params['_meta'];
  return isPlainObject(meta) && Object.prototype.hasOwnProperty.call(meta, PROTOCOL_VERSION_KEY);
}

export interface Envelope {
  readonly version: ModernProtocolVersion;
  /** The client's capabilities for this request (none of our methods needs one). */
  readonly capabilities: Readonly<Record<string, unknown>>;
}

const invalid = (why: string): RpcError => new RpcError(JSONRPC_ERRORS.invalidParams, `Invalid params: ${why}`);

/** The -32022 error: the versions we serve per request, and the one asked for. */
export function unsupportedVersion(requested: string): RpcError {
  return new RpcError(MCP_ERRORS.unsupportedProtocolVersion, MCP_ERRORS.unsupportedProtocolVersion.message, {
    supported: [...MODERN_PROTOCOL_VERSIONS],
    requested,
  });
}

/** Checks a request's envelope; throws the error the specification names for each fault. */
export function readEnvelope(params: Readonly<Record<string, unknown>>): Envelope {
  const meta = params['_meta'];
  if (!isPlainObject(meta) || !Object.prototype.hasOwnProperty.call(meta, PROTOCOL_VERSION_KEY)) {
    throw invalid(`_meta must carry "${PROTOCOL_VERSION_KEY}" and "${CLIENT_CAPABILITIES_KEY}": protocol 2026-07-28 has no initialize, every request names its own version`);
  }
  const version = meta[PROTOCOL_VERSION_KEY];
  if (typeof version !== 'string') throw invalid(`_meta "${PROTOCOL_VERSION_KEY}" must be a string such as "2026-07-28"`);
  if (!isModernVersion(version)) throw unsupportedVersion(version);
  const capabilities = meta[CLIENT_CAPABILITIES_KEY];
  if (!isPlainObject(capabilities)) throw invalid(`_meta "${CLIENT_CAPABILITIES_KEY}" is required: an object, {} when the client declares none`);
  const info = meta[CLIENT_INFO_KEY];
  if (info !== undefined && !(isPlainObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string')) {
    throw invalid(`_meta "${CLIENT_INFO_KEY}" must be an object with string name and version`);
  }
  return { version, capabilities };
}
