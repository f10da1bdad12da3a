// The CLI owns the clock: the one place a timestamp is taken, for the informational fields
// that carry one (a manifest's created_at, a rehashed scope's last_updated). The core never
// reads the time; SOURCE_DATE_EPOCH makes these timestamps reproducible.

import { UsageError, type CliIo } from './command.js';

/** RFC 3339 UTC: from SOURCE_DATE_EPOCH (whole seconds, `...T..:..:..Z`) when set, else now. */
export function timestamp(env: CliIo['env']): string {
  const epoch = env['SOURCE_DATE_EPOCH'];
  if (epoch === undefined || epoch === '') return new Date().toISOString();
  if (!/^[0-9]+$/.test(epoch) || !Number.isSafeInteger(Number(epoch)) || Number(epoch) > 253402300799) {
    throw new UsageError('SOURCE_DATE_EPOCH must be a whole number of seconds since 1970');
  }
  return new Date(Number(epoch) * 1000).toISOString().replace('.000Z', 'Z');
}
