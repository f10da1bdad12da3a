// What tools/list and tools/call put on the wire, by negotiated protocol version. Up to
// 2025-03-26 a tool is {name, description, inputSchema} and a result {content, isError?},
// byte for byte as before (descriptions included). From 2025-06-18 (structured tool
// output) a tool also shows its title, outputSchema and annotations, and a result carries
// structuredContent: the JSON value of its text, parsed from those very bytes, so the two
// can never disagree (a Markdown answer, whose text is not JSON, carries {"markdown": TEXT}
// instead). 2026-07-28 (stateless) shows tools as 2025-11-25 does; every result
// it gets also carries `resultType` and the server's identity in `_meta` (session.ts adds
// those to every result of that era).

import { parseJson } from '../json.js';
import type { AnyProtocolVersion } from './protocol-version.js';
import type { Tool, ToolOutcome } from './tool.js';
import { advertisedName, type ToolNameStyle } from './tool-names.js';

/** Whether `version` has tool titles, outputSchema and structuredContent (2025-06-18+). */
export function hasStructuredResults(version: AnyProtocolVersion): boolean {
  return version !== '2024-11-05' && version !== '2025-03-26';
}

/** One entry of a tools/list result. */
export function toolListing(tool: Tool, style: ToolNameStyle, version: AnyProtocolVersion): Record<string, unknown> {
  const name = advertisedName(tool.name, style);
  if (!hasStructuredResults(version)) {
    return { name, description: tool.legacyDescription ?? tool.description, inputSchema: tool.legacyInputSchema ?? tool.inputSchema };
  }
  return {
    name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
}

/** A tools/call result for `outcome`. */
export function toolResult(outcome: ToolOutcome, version: AnyProtocolVersion): Record<string, unknown> {
  const content = [{ type: 'text', text: outcome.text }];
  // content[0] stays the whole answer (structuredContent is parsed from it); the hint follows.
  if (outcome.hint !== undefined) content.push({ type: 'text', text: outcome.hint });
  const result: Record<string, unknown> = outcome.isError ? { content, isError: true } : { content };
  if (hasStructuredResults(version)) result['structuredContent'] = outcome.structured ?? parseJson(outcome.text);
  return result;
}
