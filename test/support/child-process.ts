import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from './async';

const TS_REGISTER = path.join(__dirname, 'ts-register.js');
const live = new Set<ChildHandle>();

/** A TypeScript child process started by a test, talking to it over IPC (`process.send`). */
export interface ChildHandle {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Every IPC message received so far, in order. */
  readonly messages: unknown[];
  /** Waits for (and returns) the first message, past or future, that matches. */
  waitForMessage<T = unknown>(match: (m: T) => boolean, what?: string, timeoutMs?: number): Promise<T>;
  /** Sends a signal to this child (by its own pid); resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code (or signal) when the child exits. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts `script` (a .ts or .js file) with `node -r test/support/ts-register.js`, an IPC channel,
 * and extra environment variables (and Node flags: `nodeFlags`). stdout and stderr are inherited so
 * a failing child explains itself in the test output.
 */
export function startChild(
  script: string,
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
): ChildHandle {
  const child = fork(script, [], {
    execArgv: [...nodeFlags, '-r', TS_REGISTER],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  const messages: unknown[] = [];
  child.on('message', (m) => messages.push(m));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const handle: ChildHandle = {
    process: child,
    pid: child.pid,
    messages,
    async waitForMessage<T>(match: (m: T) => boolean, what = 'a message from the child', timeoutMs = 15000) {
      let found: T | undefined;
      await waitFor(
        () => {
          found = (messages as T[]).find(match);
          return found !== undefined || child.exitCode !== null || child.signalCode !== null;
        },
        what,
        timeoutMs,
      );
      if (found === undefined)
        throw new Error(`child exited (${child.exitCode ?? child.signalCode}) before ${what}`);
      return found;
    },
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
      await exited;
    },
    exited,
  };
  live.add(handle);
  void exited.then(() => live.delete(handle));
  return handle;
}

/** Kills every child this test file started that is still running (for afterEach/afterAll). */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...live].map((c) => c.kill('SIGKILL')));
}
