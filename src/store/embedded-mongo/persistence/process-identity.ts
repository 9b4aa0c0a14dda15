import { readFileSync } from 'node:fs';

/**
 * Who holds a data directory, as written in its lock file: the pid, and on Linux what makes the
 * pid unambiguous (the process's start time in clock ticks since boot, and the boot's id). A pid
 * alone names a process only while it lives: after it dies the pid is reused, and until its parent
 * reaps it, a dead process stays a zombie that `kill(pid, 0)` still reports alive.
 */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (`starttime`), as text (it may exceed 2^53 in theory). */
  startTicks?: string;
  /** /proc/sys/kernel/random/boot_id: a start time means nothing across a reboot. */
  bootId?: string;
}

/** What became of the process a lock names. */
export type OwnerState =
  /** Running (or stopped, sleeping...): the directory is in use. */
  | 'live'
  /** No such process (or the machine rebooted since). */
  | 'dead'
  /** Dead, not yet reaped by its parent (kill -9 under a supervisor, a container without init). */
  | 'zombie'
  /** The pid now belongs to another process, started after the lock was written. */
  | 'reused';

/** Linux's USER_HZ, the unit of `starttime`: 100 on every architecture (a fixed part of the ABI). */
const TICKS_PER_SECOND = 100;
/**
 * How much later than its lock file a process may seem to have started and still be its writer:
 * `btime` is whole seconds, so the start time computed from it can be off by up to a second.
 */
const START_SLACK_MS = 2000;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * State and start time of a process from /proc/<pid>/stat; undefined when there is no such process
 * (or no /proc). The command name (field 2) may hold spaces and parentheses: fields are counted
 * from the last `)`.
 */
export function readProcStat(
  pid: number,
  procRoot = '/proc',
): { state: string; startTicks: string } | undefined {
  const text = readText(`${procRoot}/${pid}/stat`);
  if (text === undefined) return undefined;
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state); starttime is field 22.
  const state = fields[0];
  const startTicks = fields[19];
  if (!state || !startTicks || !/^\d+$/.test(startTicks)) return undefined;
  return { state, startTicks };
}

/** True where /proc describes processes (Linux); elsewhere only `kill(pid, 0)` can be asked. */
export function hasProc(procRoot = '/proc'): boolean {
  return readProcStat(process.pid, procRoot) !== undefined;
}

export function currentBootId(procRoot = '/proc'): string | undefined {
  return readText(`${procRoot}/sys/kernel/random/boot_id`)?.trim() || undefined;
}

/** This process, as its lock file names it. */
export function ownIdentity(procRoot = '/proc'): ProcessIdentity {
  const stat = readProcStat(process.pid, procRoot);
  const bootId = currentBootId(procRoot);
  return {
    pid: process.pid,
    ...(stat ? { startTicks: stat.startTicks } : {}),
    ...(bootId ? { bootId } : {}),
  };
}

/**
 * What became of `owner`. `lockWrittenAtMs` (the lock file's mtime) judges a lock written by an
 * older version, which holds only a pid: a process that started after the lock was written is not
 * its writer. Without /proc, a process that exists is taken as the owner (a zombie or a reused pid
 * cannot be told apart there).
 */
export function ownerState(owner: ProcessIdentity, lockWrittenAtMs: number, procRoot = '/proc'): OwnerState {
  if (!hasProc(procRoot)) return signalable(owner.pid) ? 'live' : 'dead';
  if (owner.bootId !== undefined && owner.bootId !== currentBootId(procRoot)) return 'dead';
  const stat = readProcStat(owner.pid, procRoot);
  if (!stat) return 'dead';
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return 'zombie';
  if (owner.startTicks !== undefined) return stat.startTicks === owner.startTicks ? 'live' : 'reused';
  const startedAtMs = processStartMs(stat.startTicks, procRoot);
  return startedAtMs !== undefined && startedAtMs > lockWrittenAtMs + START_SLACK_MS ? 'reused' : 'live';
}

/** When a process started (epoch ms), from its start ticks and the boot time in /proc/stat. */
function processStartMs(startTicks: string, procRoot: string): number | undefined {
  const btime = /^btime\s+(\d+)$/m.exec(readText(`${procRoot}/stat`) ?? '')?.[1];
  if (btime === undefined) return undefined;
  return Number(btime) * 1000 + (Number(startTicks) * 1000) / TICKS_PER_SECOND;
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock file's text: JSON of the identity (a lone pid, as older versions wrote, still reads). */
export function formatIdentity(identity: ProcessIdentity): string {
  return `${JSON.stringify(identity)}\n`;
}

export function parseIdentity(text: string): ProcessIdentity | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return validPid(Number(trimmed)) ? { pid: Number(trimmed) } : undefined;
  try {
    const value = JSON.parse(trimmed) as Partial<ProcessIdentity>;
    if (typeof value !== 'object' || value === null || !validPid(value.pid)) return undefined;
    return {
      pid: value.pid,
      ...(typeof value.startTicks === 'string' ? { startTicks: value.startTicks } : {}),
      ...(typeof value.bootId === 'string' ? { bootId: value.bootId } : {}),
    };
  } catch {
    return undefined;
  }
}

function validPid(pid: unknown): pid is number {
  return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0;
}
