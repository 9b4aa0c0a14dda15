import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The shared document server of `bench:faults`: the project's own `npm run store:serve`
 * (src/store/embedded-mongo/serve.ts) on a data directory and a fixed loopback port, so that a
 * restart after `kill -9` is the same server to the nodes' drivers (same address, journal
 * replayed). Its output goes to a log file; it is ready when it logs "embedded MongoDB ready".
 */
export class DocumentServer {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  /** Process ids of every server this object started (the report names them). */
  readonly pids: number[] = [];

  constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly logFd: number,
  ) {}

  get url(): string {
    return `mongodb://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the server and resolves with the time (epoch ms) it said it was ready. */
  start(timeoutMs = 60_000): Promise<number> {
    const compiled = __filename.endsWith('.js');
    const file = path.resolve(__dirname, `../../src/store/embedded-mongo/serve${compiled ? '.js' : '.ts'}`);
    const register = path.resolve(__dirname, '../../test/support/ts-register.js');
    const loader = compiled || !existsSync(register) ? [] : ['-r', register];
    const child = spawn(process.execPath, [...loader, file, '--port', String(this.port), '--dir', this.dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid === undefined) throw new Error('document server: could not start');
    this.child = child;
    this.pids.push(child.pid);
    this.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return new Promise<number>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`document server: not ready within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        writeSync(this.logFd, chunk);
        if (seen === 'ready') return;
        seen = (seen + chunk.toString('utf8')).slice(-4096);
        if (seen.includes('embedded MongoDB ready')) {
          seen = 'ready';
          clearTimeout(timer);
          resolve(Date.now());
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => writeSync(this.logFd, chunk));
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (seen !== 'ready')
          reject(new Error(`document server exited (${code ?? signal}) before it was ready`));
      });
    });
  }

  /** SIGKILL by pid, then resolves once the process is gone (reaped by this process). */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid, 'SIGKILL');
    await this.exited;
  }

  /** SIGTERM (a clean stop), SIGKILL by pid after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const pid = child.pid;
    process.kill(pid, 'SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Last resort (errors, watchdog): SIGKILL the running server by its pid, without waiting. */
  killNow(): void {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
