import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A message a bench child sends over IPC: `{event, ...}`. */
export interface ChildMessage {
  event: string;
  [key: string]: unknown;
}

/** A child process of the benchmark (a service node, the bare server, the document server). */
export interface BenchProcess {
  readonly name: string;
  readonly pid: number;
  /** The first message with this event (already received or to come); rejects if the child exits first. */
  next<T extends ChildMessage>(event: string, timeoutMs?: number): Promise<T>;
  send(message: Record<string, unknown>): void;
  /** User + system CPU time so far, in µs (Linux /proc); undefined elsewhere or once exited. */
  cpuMicros(): number | undefined;
  /** The same for its main thread alone. */
  mainThreadCpuMicros(): number | undefined;
  /**
   * Freezes the child (SIGSTOP) while other cases are measured, so that its idle work (timers, the
   * garbage collection that follows its own load) does not take CPU from them; `resume` (SIGCONT)
   * thaws it. Both are no-ops once it exited.
   */
  pause(): void;
  resume(): void;
  /** Asks the child to stop (`{cmd: 'stop'}`), then SIGKILLs it by pid after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  readonly exited: Promise<void>;
}

const running = new Set<ChildProcess>();

/** Last resort (errors, watchdog): SIGKILL every child still running, by its pid. */
export function killAllChildren(): void {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time of a process, or of one of its threads (`tid`; a process's main thread has its pid). */
function cpuMicrosOf(pid: number, tid?: number): number | undefined {
  try {
    const file = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Forks `<script>.js` next to this file (compiled run, `npm run bench:mcp`) or `<script>.ts` through
 * the tests' SWC loader (run from sources). `env` is added to this process's environment;
 * `execArgv` (e.g. `--cpu-prof`) goes to the child's node; `output`, a file descriptor, receives
 * the child's stdout and stderr (default: this process's).
 */
export function startProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
  output?: number,
): BenchProcess {
  const compiled = __filename.endsWith('.js');
  const file = path.join(__dirname, `${script}${compiled ? '.js' : '.ts'}`);
  const register = path.resolve(__dirname, '../../test/support/ts-register.js');
  const loader = compiled || !existsSync(register) ? [] : ['-r', register];
  const child = fork(file, [], {
    execArgv: [...loader, ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', output ?? 'inherit', output ?? 'inherit', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  const pid = child.pid;
  running.add(child);
  const received: ChildMessage[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.on('message', (m: ChildMessage) => {
    received.push(m);
    wake();
  });
  child.on('error', () => undefined);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      wake();
      resolve();
    }),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const signal = (name: NodeJS.Signals) => {
    if (gone()) return;
    try {
      process.kill(pid, name);
    } catch {
      // exited meanwhile
    }
  };

  return {
    name,
    pid,
    exited,
    next<T extends ChildMessage>(event: string, timeoutMs = 60_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${name}: no "${event}" within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          const found = received.find((m) => m.event === event);
          if (!found && !gone()) return;
          waiters.delete(check);
          clearTimeout(timer);
          if (found) resolve(found as T);
          else reject(new Error(`${name} exited before "${event}"`));
        };
        waiters.add(check);
        check();
      });
    },
    send(message) {
      if (!gone() && child.connected) child.send(message);
    },
    cpuMicros: () => (gone() ? undefined : cpuMicrosOf(pid)),
    mainThreadCpuMicros: () => (gone() ? undefined : cpuMicrosOf(pid, pid)),
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    async stop(graceMs = 10_000) {
      if (gone()) return;
      signal('SIGCONT');
      if (child.connected) child.send({ cmd: 'stop' });
      const timer = setTimeout(() => {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** CPU of this process (the load generator), in µs. */
export function ownCpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** A process of this machine by its command name (`beam.smp`, `redis-server`), for its CPU time. */
export function processByName(comm: string): { pid: number; cpuMicros(): number | undefined } | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) {
        const pid = Number(entry);
        return { pid, cpuMicros: () => cpuMicrosOf(pid) };
      }
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
