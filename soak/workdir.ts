// Every soak run works in one fresh temporary directory and removes it afterwards, whatever
// happened; a tmpfs mounted for the full-disk trials is unmounted first.

import { mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

export class WorkDir {
  readonly root: string;
  private readonly mounts: string[] = [];

  constructor(prefix = 'context-soak-') {
    // Real path: answers are checked for this string, and /tmp may itself be a symlink.
    this.root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  }

  path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  /** Remembers a mount point to unmount before removal. */
  mounted(point: string): void {
    this.mounts.push(point);
  }

  unmount(point: string): void {
    spawnSync('umount', [point], { stdio: 'ignore' });
    const i = this.mounts.indexOf(point);
    if (i >= 0) this.mounts.splice(i, 1);
  }

  remove(): void {
    for (const point of [...this.mounts].reverse()) this.unmount(point);
    rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
  }
}
