import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The embedded server running in its own process (`store:serve`), for client/server on separate cores. */
export interface ServerProcess {
  url: string;
  /** CPU time the server process has used so far, in microseconds (Linux /proc); undefined elsewhere. */
  cpuMicros(): number | undefined;
  stop(): Promise<void>;
}

/** Starts serve.js (or serve.ts through the test loader when running from sources) on a free port. */
export async function startServerProcess(dir: string): Promise<ServerProcess> {
  const compiled = path.resolve(__dirname, '../../src/store/embedded-mongo/serve.js');
  const source = path.resolve(__dirname, '../../src/store/embedded-mongo/serve.ts');
  const args = existsSync(compiled)
    ? [compiled]
    : ['-r', path.resolve(__dirname, '../../test/support/ts-register.js'), source];
  const proc: ChildProcess = spawn(process.execPath, [...args, '--port', '0', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('store:serve did not start within 20 s')), 20_000);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { url?: string; msg?: string };
        if (entry.url && entry.msg?.startsWith('embedded MongoDB ready')) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      } catch {
        // not a log line
      }
    });
    proc.once('exit', (code) => reject(new Error(`store:serve exited with ${code}`)));
  });
  return {
    url,
    cpuMicros: () => {
      try {
        // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 per second).
        const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10_000;
      } catch {
        return undefined;
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}
