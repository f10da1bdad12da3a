// `context verify`: every integrity check of specs/core/context_cache.md "Verification",
// each reported by name with its problems (cache-relative names only), valid only when all
// hold. Deeper than `inspect`, which stays as shallow as seed 004 says.

import type { Json } from '../../../json.js';
import { CHECK_NAMES, examineCache, type CheckFailure, type CheckName } from './check.js';

export interface VerifyReport {
  readonly cacheVersion: string;
  readonly valid: boolean;
  readonly checks: readonly { readonly name: CheckName; readonly ok: boolean; readonly problems: readonly string[] }[];
}

export function verifyCache(dir: string): VerifyReport {
  const failures: CheckFailure[] = [];
  const contents = examineCache(dir, (f) => void failures.push(f));
  const checks = CHECK_NAMES.map((name) => {
    let problems = failures.filter((f) => f.check === name).map((f) => f.message);
    if (contents === null && name !== 'manifest') problems = ['not checked: the manifest is unusable'];
    return { name, ok: problems.length === 0, problems };
  });
  return {
    cacheVersion: contents?.cacheVersion ?? '',
    valid: checks.every((c) => c.ok),
    checks,
  };
}

export function verifyReportJson(report: {
  readonly cacheVersion: string;
  readonly valid: boolean;
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly problems: readonly string[] }[];
}): Json {
  return {
    cache_version: report.cacheVersion,
    valid: report.valid,
    checks: report.checks.map((c) => ({ name: c.name, ok: c.ok, problems: c.problems })),
  };
}
