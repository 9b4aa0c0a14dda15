import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildEvent } from '../support/child-ipc';

// The child side lives in support (kernel children import it from here).
export { onStopRequest, tell, type ChildEvent } from '../support/child-ipc';

/** A helper process of the benchmark (a worker node, an HTTP server), talking over IPC. */
export interface BenchChild {
  readonly name: string;
  readonly pid: number;
  /** Resolves with the first IPC message (past or future) that matches. */
  waitFor<T extends ChildEvent>(event: T['event'], timeoutMs?: number): Promise<T>;
  /** CPU time used so far (user + system), in µs; undefined where /proc is missing. */
  cpuMicros(): number | undefined;
  /** Asks the child to stop gracefully; kills it (by its pid) if it has not exited in `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();

/** Kills, by pid, every child still running (the benchmark's last resort on error or timeout). */
export function killAllChildren(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Starts `<script>.js` beside this file (compiled run) or `<script>.ts` through the tests' SWC
 * loader (run from sources). The child gets `env` on top of this process's environment.
 */
export function startChild(name: string, script: string, env: Record<string, string>): BenchChild {
  const compiled = __filename.endsWith('.js');
  const file = path.join(__dirname, `${script}${compiled ? '.js' : '.ts'}`);
  const register = path.resolve(__dirname, '../../test/support/ts-register.js');
  const execArgv = compiled || !existsSync(register) ? [] : ['-r', register];
  const child = fork(file, [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  live.add(child);
  const messages: ChildEvent[] = [];
  const listeners = new Set<() => void>();
  child.on('message', (m: ChildEvent) => {
    messages.push(m);
    for (const l of listeners) l();
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      live.delete(child);
      for (const l of listeners) l();
      resolve();
    }),
  );
  const pid = child.pid;
  return {
    name,
    pid,
    waitFor<T extends ChildEvent>(event: string, timeoutMs = 30_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = messages.find((m) => m.event === event);
          if (found) {
            done();
            resolve(found as T);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`${name} exited before "${event}"`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name}: no "${event}" within ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    cpuMicros: () => processCpuMicros(pid),
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ cmd: 'stop' });
      const timer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** User + system CPU of a process from /proc/<pid>/stat, in µs (clock ticks of 10 ms). */
export function processCpuMicros(pid: number): number | undefined {
  try {
    // Fields 14 and 15 (utime, stime), counted after the ")" that ends the command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * The pid of a process of this machine by its command name (`/proc/<pid>/comm`), e.g. the local
 * RabbitMQ's `beam.smp`, to count its CPU per request; undefined when none or several match.
 */
export function findProcess(comm: string): number | undefined {
  let found: number | undefined;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let name: string;
      try {
        name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      } catch {
        continue;
      }
      if (name !== comm) continue;
      if (found !== undefined) return undefined;
      found = Number(entry);
    }
  } catch {
    return undefined;
  }
  return found;
}

/** Busy and total jiffies of the whole machine (/proc/stat), to tell how loaded the cores were. */
export function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const values = line.split(/\s+/).slice(1).map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    const idle = values[3] + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}
