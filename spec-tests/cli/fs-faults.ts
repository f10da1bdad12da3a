// OS failures a test cannot cause for real (a full disk, a read-only file system, a
// permission when the tests run as root), injected in process: the named node:fs calls throw
// the OS's error — its code, syscall and path, as Node's own errors carry them — for paths
// holding a marker (and for every call whose first argument is not a path: fd-based writes).

import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

export type FsName = 'writeFileSync' | 'writevSync' | 'mkdtempSync' | 'mkdirSync' | 'openSync';

/** Runs `body` with each of `names` throwing `code` (as the OS would) when its path argument holds `marker` (any call for fd-based writes). */
export async function failing<T>(names: readonly FsName[], code: string, marker: string, body: () => Promise<T>): Promise<T> {
  const real = new Map<FsName, unknown>();
  const api = fs as unknown as Record<FsName, (...args: unknown[]) => unknown>;
  for (const name of names) {
    const original = api[name];
    real.set(name, original);
    api[name] = function (this: unknown, ...args: unknown[]) {
      const target = args[0];
      if (typeof target !== 'string' || target.includes(marker)) {
        throw Object.assign(new Error(`${code}: injected, ${name}`), { code, syscall: name.replace(/Sync$/, ''), ...(typeof target === 'string' ? { path: target } : {}) });
      }
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
  try {
    return await body();
  } finally {
    for (const [name, original] of real) api[name] = original as (...args: unknown[]) => unknown;
    syncBuiltinESMExports();
  }
}

