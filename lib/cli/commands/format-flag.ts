// The `--format json|pretty` flag shared by the cache commands (resolve adds text).

import type { OutputFormat } from '../../core/operations/api.js';
import { UsageError } from '../command.js';

/** `extra`: further formats the command itself handles (named in the usage error). */
export function formatFlag(value: string | undefined, fallback: OutputFormat, extra: readonly string[] = []): OutputFormat {
  if (value === undefined) return fallback;
  if (value === 'json' || value === 'pretty') return value;
  const known = ['json', 'pretty', ...extra];
  throw new UsageError(`--format must be ${known.slice(0, -1).join(', ')} or ${known.at(-1) ?? ''}, not "${value}"`);
}
