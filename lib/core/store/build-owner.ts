// Who owns a build's temporary directory, and whether that owner still runs. A build names
// its directories `.NAME.tmp-<owner>-XXXXXX`: the owner tag (machine, pid, process start
// time) exists the instant the directory does, so no other build ever sees one unowned.
// Liveness is read from /proc; an owner that cannot be judged is treated as alive.

import { createHash } from 'node:crypto';
import * as fs from '../fs.js';

/** This process as a tag, e.g. `3f2a9c0d11e4-4242-893311`, or null where /proc is absent. */
export interface BuildOwner {
  readonly tag: string;
  /** Effective uid: only directories this user owns are ever judged (hidepid-safe). */
  readonly uid: number;
}

export type OwnerState = 'alive' | 'dead' | 'unknown';

const TAG = /^([0-9a-f]{12})-([0-9]+)-([0-9]+)$/;

interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly start: string;
}

/** Fields of /proc/PID/stat: the command name may hold spaces and ")", so parse after the last ")". */
function parseStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isSafeInteger(pid)) return null;
  const rest = text.slice(close + 2).split(' ');
  // After the name: field 3 is the state, field 22 the start time (clock ticks since boot).
  const state = rest[0];
  const start = rest[19];
  if (state === undefined || start === undefined || !/^[0-9]+$/.test(start)) return null;
  return { pid, state, start };
}

/**
 * The machine part of a tag: one boot of one kernel, seen from one pid namespace. Another
 * machine, an earlier boot or another container gets another value, and its processes
 * are then never judged from here (their pids mean nothing here).
 */
function machineId(): string {
  const boot = fs.readText('/proc/sys/kernel/random/boot_id').trim();
  const pidNamespace = fs.readLink('/proc/self/ns/pid');
  return createHash('sha256').update(`${boot}\n${pidNamespace}`).digest('hex').slice(0, 12);
}

let memo: BuildOwner | null | undefined;

/** This process's owner tag (computed once), or null where /proc cannot say. */
export function currentOwner(): BuildOwner | null {
  if (memo !== undefined) return memo;
  try {
    const stat = parseStat(fs.readText('/proc/self/stat'));
    const uid = /^Uid:\s+[0-9]+\s+([0-9]+)/m.exec(fs.readText('/proc/self/status'))?.[1];
    memo = stat === null || uid === undefined ? null : { tag: `${machineId()}-${stat.pid}-${stat.start}`, uid: Number(uid) };
  } catch {
    memo = null;
  }
  return memo;
}

/**
 * Whether the process a tag names still runs: `dead` only when the tag was made on this
 * machine, boot and pid namespace and its pid is gone, a zombie, or a different process
 * (another start time: the pid was reused); `unknown` when it cannot be told.
 */
export function ownerState(tag: string, me: BuildOwner): OwnerState {
  const m = TAG.exec(tag);
  const mine = TAG.exec(me.tag);
  if (m === null || mine === null || m[1] !== mine[1]) return 'unknown';
  let text: string;
  try {
    text = fs.readText(`/proc/${m[2] as string}/stat`);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    // ESRCH: the process exited between opening and reading its stat.
    return code === 'ENOENT' || code === 'ESRCH' ? 'dead' : 'unknown';
  }
  const stat = parseStat(text);
  if (stat === null) return 'unknown';
  if (stat.start !== m[3]) return 'dead'; // the pid now belongs to a later process
  return stat.state === 'Z' || stat.state === 'X' ? 'dead' : 'alive';
}

/** True for a tag of this shape (the part of a staging name between prefix and suffix). */
export function isOwnerTag(text: string): boolean {
  return TAG.test(text);
}
