// The three operations as both faces call them: raw arguments in, the exact output text
// out (compact JSON + "\n") with a status. The CLI prints the text and maps the status to
// an exit code; an MCP tool returns the same text, `isError` unless the status is `ok`.

import * as nodePath from 'node:path';
import { compact, type Json } from '../../json.js';
import { citeSpan, claimPath } from './cite.js';
import { refusalJson, citeJson, claimJson, verifyJson } from './render.js';
import { parseCiteRequest, parseClaimRequest, parseVerifyRequest, type RawArgs } from './requests.js';
import { verifyWorkspace, type VerifyOutput } from './verify.js';
import { openWorkspace } from './workspace.js';
import { nodeWorkspaceFs, type WorkspaceFs } from './workspace-fs.js';

/** `ok`: everything held; `failed`: a claim failed or was refused; `invalid_input`: bad args. */
export type CitationStatus = 'ok' | 'failed' | 'invalid_input';

export interface CitationOutcome {
  readonly text: string;
  readonly status: CitationStatus;
  /** For people (CLI stderr) only: the reason, or how many claims failed; "" when ok. */
  readonly note: string;
}

export interface CitationEnv {
  /** Absolute directory a relative `root` is resolved against (CLI: cwd; MCP: project root). */
  readonly base: string;
  readonly fs?: WorkspaceFs;
}

function outcomeOf(value: Json, ok: boolean, note: string): CitationOutcome {
  return { text: compact(value) + '\n', status: ok ? 'ok' : 'failed', note: ok ? '' : note };
}

const INVALID_INPUT: CitationOutcome = {
  text: compact(refusalJson('invalid_input')) + '\n',
  status: 'invalid_input',
  note: 'invalid_input',
};

function workspaceFor(env: CitationEnv, root: string) {
  return openWorkspace(env.fs ?? nodeWorkspaceFs, nodePath.resolve(env.base, root));
}

/** `context cite` / `context.cite`. */
export function citeOutcome(args: RawArgs, env: CitationEnv): CitationOutcome {
  const req = parseCiteRequest(args);
  if (req === null) return INVALID_INPUT;
  const result = citeSpan(workspaceFor(env, req.root), req.path, req.startLine, req.endLine);
  return outcomeOf(citeJson(result), result.ok, result.ok ? '' : result.reason);
}

/** `context claim` / `context.claim`. */
export function claimOutcome(args: RawArgs, env: CitationEnv): CitationOutcome {
  const req = parseClaimRequest(args);
  if (req === null) return INVALID_INPUT;
  const result = claimPath(nodePath.resolve(env.base, req.root), req.kind, req.path);
  return outcomeOf(claimJson(result), result.ok, result.ok ? '' : result.reason);
}

/** "2 of 5 claims failed", plus unreadable files of a folder; or the refusal's reason. */
function verifyNote(output: VerifyOutput): string {
  if (output.shape === 'refused') return output.reason;
  const totals = output.shape === 'document' ? output.report : output.totals;
  const parts = totals.failCount > 0 ? [`${totals.failCount} of ${totals.total} claims failed`] : [];
  if (output.shape === 'directory') {
    const unreadable = output.files.filter((f) => f.reason !== undefined).length;
    if (unreadable > 0) parts.push(`${unreadable} of ${output.files.length} files could not be read`);
  }
  return parts.join('; ');
}

/** `context verify-claims` / `context.verify_workspace`. */
export function verifyOutcome(args: RawArgs, env: CitationEnv): CitationOutcome {
  const req = parseVerifyRequest(args);
  if (req === null) return INVALID_INPUT;
  const input = req.inPath === undefined ? { text: req.text } : { inPath: req.inPath };
  const output = verifyWorkspace(workspaceFor(env, req.root), input);
  const ok = output.shape === 'document' ? output.report.ok : output.shape === 'directory' ? output.ok : false;
  return outcomeOf(verifyJson(output), ok, verifyNote(output));
}
