import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  formatIdentity,
  ownerState,
  parseIdentity,
  readProcStat,
} from '../../../../src/store/embedded-mongo/persistence/process-identity';

/** A /proc of our own: this process (so /proc counts as present), the boot, and chosen processes. */
function fakeProc(processes: Record<number, { comm: string; state: string; startTicks: number }>) {
  const root = mkdtempSync(path.join(tmpdir(), 'fake-proc-'));
  const stat = (pid: number, comm: string, state: string, start: number) => {
    mkdirSync(path.join(root, String(pid)), { recursive: true });
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // cutime cstime priority nice threads itrealvalue starttime ...
    const fields = [state, 1, 1, 1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 0, 1, 0, start, 1000];
    writeFileSync(path.join(root, String(pid), 'stat'), `${pid} (${comm}) ${fields.join(' ')}\n`);
  };
  stat(process.pid, 'node', 'R', 5000);
  for (const [pid, p] of Object.entries(processes)) stat(Number(pid), p.comm, p.state, p.startTicks);
  mkdirSync(path.join(root, 'sys/kernel/random'), { recursive: true });
  writeFileSync(path.join(root, 'sys/kernel/random/boot_id'), 'boot-1\n');
  writeFileSync(path.join(root, 'stat'), 'cpu  1 2 3\nbtime 1700000000\nprocesses 9\n');
  return root;
}

/** Epoch ms of a start time in ticks, with the fake btime. */
const at = (ticks: number) => 1700000000_000 + ticks * 10;

describe('process identity of the data directory lock', () => {
  let root: string;
  beforeAll(() => {
    root = fakeProc({
      101: { comm: 'node', state: 'S', startTicks: 7000 },
      102: { comm: 'a (b) c) d', state: 'Z', startTicks: 7100 },
      103: { comm: 'sleep', state: 'X', startTicks: 7200 },
    });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads state and start time, whatever the command name holds', () => {
    expect(readProcStat(101, root)).toEqual({ state: 'S', startTicks: '7000' });
    expect(readProcStat(102, root)).toEqual({ state: 'Z', startTicks: '7100' });
    expect(readProcStat(999, root)).toBeUndefined();
  });

  it('tells a live owner from a dead one, a zombie, a reused pid and a lock from another boot', () => {
    const lock = (pid: number, startTicks?: number, bootId = 'boot-1') => ({
      pid,
      ...(startTicks === undefined ? {} : { startTicks: String(startTicks) }),
      bootId,
    });
    expect(ownerState(lock(101, 7000), 0, root)).toBe('live');
    expect(ownerState(lock(101, 6999), 0, root)).toBe('reused');
    expect(ownerState(lock(102, 7100), 0, root)).toBe('zombie');
    expect(ownerState(lock(103, 7200), 0, root)).toBe('zombie');
    expect(ownerState(lock(999, 1), 0, root)).toBe('dead');
    expect(ownerState(lock(101, 7000, 'boot-0'), 0, root)).toBe('dead');
  });

  it('judges a pid alone (an older lock) by when its process started against when the lock was written', () => {
    expect(ownerState({ pid: 101 }, at(7000) + 1000, root)).toBe('live'); // written after it started
    expect(ownerState({ pid: 101 }, at(7000) - 1000, root)).toBe('live'); // within the slack of btime
    expect(ownerState({ pid: 101 }, at(7000) - 60_000, root)).toBe('reused'); // it started later
    expect(ownerState({ pid: 102 }, at(7100), root)).toBe('zombie');
  });

  it('asks kill(pid, 0) where there is no /proc', () => {
    const none = path.join(root, 'nothing-here');
    expect(ownerState({ pid: process.pid, startTicks: '1' }, 0, none)).toBe('live');
    expect(ownerState({ pid: 2 ** 22 + 12345 }, 0, none)).toBe('dead');
  });

  it('writes JSON and reads it back, or a pid alone; anything else is no owner', () => {
    const identity = { pid: 42, startTicks: '123', bootId: 'b' };
    expect(parseIdentity(formatIdentity(identity))).toEqual(identity);
    expect(parseIdentity('42\n')).toEqual({ pid: 42 });
    for (const text of ['', 'x', '0', '-3', '{"pid":"42"}', '{"pid":1.5}', 'null', '[1]']) {
      expect(parseIdentity(text)).toBeUndefined();
    }
  });
});
