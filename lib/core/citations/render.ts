// The JSON shapes of the citation operations, keys in a fixed order (VeriContext's, with
// additions only at the end of an object): cite {ok, citation, sha256_full}; claim {ok,
// claim, kind, normalized_path}; refusal {ok, reason}; verification as verifyJson documents.

import type { Json } from '../../json.js';
import type { CiteResult, ClaimResult } from './cite.js';
import type { Reason } from './reasons.js';
import type { ClaimCheck, VerifyOutput, VerifyReport } from './verify.js';

export function refusalJson(reason: Reason): Json {
  return { ok: false, reason };
}

export function citeJson(result: CiteResult): Json {
  if (!result.ok) return refusalJson(result.reason);
  return { ok: true, citation: result.citation, sha256_full: result.sha256Full };
}

export function claimJson(result: ClaimResult): Json {
  if (!result.ok) return refusalJson(result.reason);
  return { ok: true, claim: result.claim, kind: result.kind, normalized_path: result.normalizedPath };
}

/** {claim, kind, ok, reason?, moved_to?: [{start_line, end_line, citation}]} */
export function checkJson(check: ClaimCheck): Json {
  return {
    claim: check.claim,
    kind: check.kind,
    ok: check.ok,
    reason: check.reason,
    moved_to: check.movedTo?.map((m) => ({ start_line: m.startLine, end_line: m.endLine, citation: m.citation })),
  };
}

/** {ok, total, ok_count, fail_count, results} (VeriContext's verify_workspace result). */
export function reportJson(report: VerifyReport): Json {
  return {
    ok: report.ok,
    total: report.total,
    ok_count: report.okCount,
    fail_count: report.failCount,
    results: report.results.map(checkJson),
  };
}

/**
 * A document: reportJson. A directory: {ok, total, ok_count, fail_count, files: [{path, ok,
 * reason?, total, ok_count, fail_count, results}]}, files in byte order of path.
 */
export function verifyJson(output: VerifyOutput): Json {
  switch (output.shape) {
    case 'refused':
      return refusalJson(output.reason);
    case 'document':
      return reportJson(output.report);
    case 'directory':
      return {
        ok: output.ok,
        total: output.totals.total,
        ok_count: output.totals.okCount,
        fail_count: output.totals.failCount,
        files: output.files.map((file) => ({
          path: file.path,
          ok: file.report.ok,
          reason: file.reason,
          total: file.report.total,
          ok_count: file.report.okCount,
          fail_count: file.report.failCount,
          results: file.report.results.map(checkJson),
        })),
      };
  }
}
