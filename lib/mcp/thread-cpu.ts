// How much CPU one thread of this process has used, where Linux says (/proc): the tool pool
// tells a slow call by the CPU its worker spent on it, not by the clock, so a machine busy
// with other work (a test run, a build) does not make a small call look slow.

import * as fs from '../core/fs.js';

/** The calling thread's id in /proc, or null where there is none (not Linux). */
export function currentThreadId(): number | null {
  try {
    const tid = Number(fs.readLink('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** CPU time (ms) the thread `tid` of this process has run, or null when it cannot be read. */
export function threadCpuMs(tid: number): number | null {
  try {
    // schedstat: time on the CPU (ns), time waiting to run (ns), time slices.
    const ns = Number(fs.readText(`/proc/self/task/${tid}/schedstat`).split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}
