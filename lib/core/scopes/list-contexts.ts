// `list_contexts` / `context scopes`: every tracked directory with its state, sorted by
// scope in byte order. Only a failed scan is an error (seed 003), with a `reason` naming the
// OS error and the entry it hit; `root` echoes the root as the caller spelled it, so no
// absolute path of this machine reaches the output.

import type { Json } from '../../json.js';
import { readContextFile } from './context-file.js';
import { fingerprintDir, judgeFreshness } from './fingerprint.js';
import { scanFailedError } from './messages.js';
import { outcome, type ProjectRoot, type ScopeOutcome } from './outcome.js';
import { loadProjectConfig } from './project-config.js';
import { scanFailureReason } from './scan-failure.js';
import { scanTrackedDirs } from './tracked-dirs.js';

export function listContexts(root: ProjectRoot): ScopeOutcome {
  const entries: Json[] = [];
  let total: number;
  let skipped: number;
  let tracked = 0;
  try {
    const scan = scanTrackedDirs(root.dir, loadProjectConfig(root.dir));
    total = scan.dirs.length;
    skipped = scan.skipped;
    for (const dir of scan.dirs) {
      const read = readContextFile(root.dir, dir.dir);
      if (read.kind !== 'valid') {
        // Absent, corrupt and newer-version files alike: no usable context here.
        entries.push({ scope: dir.scope, state: 'missing', has_context: false });
        continue;
      }
      tracked++;
      const { state } = judgeFreshness(read.context['fingerprint'] as string, fingerprintDir(dir.dir, dir.scope, dir.rules));
      entries.push({
        scope: dir.scope,
        state,
        has_context: true,
        last_updated: read.context['last_updated'] as string,
        summary: read.context['summary'] as string,
      });
    }
  } catch (err) {
    // The seed's `error` text stays exact (clients match it); the added `reason` says why.
    const error = scanFailedError(root.label);
    const reason = scanFailureReason(err, root.dir);
    const value: Json = { root: root.label, total_directories: 0, skipped_directories: 0, tracked: 0, entries: [], error, reason };
    return outcome(value, true, 'scan', `${error}: ${reason}`);
  }
  const value: Json = { root: root.label, total_directories: total, skipped_directories: skipped, tracked, entries };
  return outcome(value, false);
}
