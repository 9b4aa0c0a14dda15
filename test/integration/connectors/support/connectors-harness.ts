import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { ConnectorsOptions } from '../../../../actors/connectors/connectors';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger, type Logger } from '../../../../src/logging/logger';
import { eventually as pollUntil } from '../../../support/async';

/** The stdio entry of @modelcontextprotocol/server-everything, resolved where it is installed. */
export const EVERYTHING_ENTRY = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** The allowlist the tests run with: this Node binary running server-everything's entry. */
export const EVERYTHING_PREFIX = [process.execPath, EVERYTHING_ENTRY];

export interface ConnectorsHarness {
  runtime: Runtime;
  url: string;
  http: () => ReturnType<typeof request>;
  /** A fresh account (real signup) and its bearer token; enterprise_plus unless `plan` says otherwise. */
  account(plan?: 'enterprise_plus' | 'retail_pro'): Promise<{ token: string; auth: string }>;
  stop(): Promise<void>;
}

/**
 * Starts a runtime on a temp DATA_DIR and port 0, with loopback HTTP and server-everything allowed.
 * `options.dir`: a data directory to reuse (a restart; `stop()` then leaves it in place);
 * `options.logger`: where the runtime logs (default: nowhere).
 */
export async function startConnectorsHarness(
  env: Record<string, string> = {},
  connectors: ConnectorsOptions = {},
  options: { dir?: string; logger?: Logger } = {},
): Promise<ConnectorsHarness> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ars-connectors-'));
  const runtime = await startRuntime(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      JWT_SECRET: randomBytes(24).toString('hex'),
      ALLOW_LOOPBACK_HTTP: 'true',
      MCP_STDIO_ALLOWLIST: JSON.stringify([EVERYTHING_PREFIX]),
      ...env,
    }),
    options.logger ?? silentLogger,
    {
      identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } },
      connectors,
    },
  );
  const url = runtime.http!.url;
  const http = () => request(url);
  return {
    runtime,
    url,
    http,
    async account(plan = 'enterprise_plus') {
      const res = await http()
        .post('/api/signup')
        .send({
          email: `op-${randomBytes(6).toString('hex')}@example.com`,
          password: 'correct horse battery',
          accountType: plan.startsWith('enterprise') ? 'enterprise' : 'retail',
          selectedPlan: plan,
        });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      const token = res.body.credentials.bearerToken as string;
      return { token, auth: `Bearer ${token}` };
    },
    async stop() {
      await runtime.stop();
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a process is alive (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Process ids of this process's children running server-everything (Linux `/proc`), so that the
 * tests see the real child processes a connector starts and check none is left behind.
 */
export function everythingChildren(): number[] {
  if (!fs.existsSync('/proc')) return [];
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(EVERYTHING_ENTRY) && !stat.includes(') Z ')) out.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Polls `check` until it returns a truthy value (connector sessions are slow to come and go: 8 s). */
export const eventually = <T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 8000,
): Promise<T> => pollUntil(check, timeoutMs, 50);
