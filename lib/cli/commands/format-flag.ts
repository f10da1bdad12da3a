// The `--format json|pretty` flag shared by the cache commands.

import type { OutputFormat } from '../../core/cache/api.js';
import { UsageError } from '../command.js';

export function formatFlag(value: string | undefined, fallback: OutputFormat): OutputFormat {
  if (value === undefined) return fallback;
  if (value === 'json' || value === 'pretty') return value;
  throw new UsageError(`--format must be json or pretty, not "${value}"`);
}
