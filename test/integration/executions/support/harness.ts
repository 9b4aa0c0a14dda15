import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import type { Services } from '../../../../src/boot/services';
import { silentLogger } from '../../../../src/logging/logger';

/** A runtime for execution tests: embedded stores, temp DATA_DIR, port 0 (env overrides: AMQP, …). */
export interface ExecHarness {
  runtime: Runtime;
  http: () => ReturnType<typeof request>;
  /** A retail_pro account: its bearer token. */
  account(): Promise<string>;
  /** `POST /api/executions` (201 expected): the execution view. */
  create(token: string, body: Record<string, unknown>): Promise<ExecutionBody>;
  act(token: string, id: string, action: string): Promise<request.Response>;
  get(token: string, id: string): Promise<{ execution: ExecutionBody; logs: LogBody[] }>;
  /** Polls `GET /api/executions/{id}` until `check` holds (throws after `timeoutMs`). */
  waitFor(
    token: string,
    id: string,
    check: (e: ExecutionBody) => boolean,
    timeoutMs?: number,
  ): Promise<ExecutionBody>;
  stop(): Promise<void>;
}

export interface ExecutionBody {
  id: string;
  status: string;
  progress: { completedSteps: number; totalSteps: number | null };
  steps: Array<{ index: number; name: string; status: string; attempts: number; effects: unknown[] }>;
  stepInFlight: number | null;
  [key: string]: unknown;
}
export interface LogBody {
  seq: number;
  level: string;
  message: string;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function startExecHarness(env: Record<string, string> = {}): Promise<ExecHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-exec-'));
  const runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex'), ...env }),
    silentLogger,
    { identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } } },
  );
  const url = runtime.http!.url;
  const http = () => request(url);

  const account = async () => {
    const email = `exec-${randomBytes(6).toString('hex')}@example.com`;
    const res = await http()
      .post('/api/signup')
      .send({ email, password: 'correct horse battery', accountType: 'retail', selectedPlan: 'retail_pro' });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.credentials.bearerToken as string;
  };

  const create = async (token: string, body: Record<string, unknown>) => {
    const res = await http().post('/api/executions').set(bearer(token)).send(body);
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.execution as ExecutionBody;
  };

  const act = (token: string, id: string, action: string) =>
    http().post(`/api/executions/${id}/actions`).set(bearer(token)).send({ action });

  const get = async (token: string, id: string) => {
    const res = await http().get(`/api/executions/${id}`).set(bearer(token));
    if (res.status !== 200) throw new Error(`get failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { execution: ExecutionBody; logs: LogBody[] };
  };

  const waitFor = async (
    token: string,
    id: string,
    check: (e: ExecutionBody) => boolean,
    timeoutMs = 8000,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { execution } = await get(token, id);
      if (check(execution)) return execution;
      if (Date.now() > deadline) {
        throw new Error(`execution ${id} not as expected in time: ${JSON.stringify(execution)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  return {
    runtime,
    http,
    account,
    create,
    act,
    get,
    waitFor,
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** DEMO_STEPS of `n` sleeps of `ms` each. */
export const sleeps = (n: number, ms: number) => Array.from({ length: n }, () => ({ op: 'sleep', ms }));

/** What `useExecHarness` sets up for a test file; read it inside tests and hooks (set in `beforeAll`). */
export interface ExecSuite {
  h: ExecHarness;
  /** The first account's bearer token. */
  token: string;
  /** The same first account (`a`) and, with `accounts: 2`, a second one (`b`). */
  a: string;
  b: string;
}

/**
 * Registers `beforeAll`/`afterAll` for one runtime per file (`startExecHarness`) with one or two
 * retail_pro accounts on it. `beforeStop` runs in `afterAll` before the runtime stops.
 */
export function useExecHarness(
  options: {
    accounts?: 1 | 2;
    timeoutMs?: number;
    beforeStop?: (suite: ExecSuite) => Promise<void>;
  } = {},
): ExecSuite {
  const suite = {} as ExecSuite;
  beforeAll(async () => {
    suite.h = await startExecHarness();
    suite.token = suite.a = await suite.h.account();
    if (options.accounts === 2) suite.b = await suite.h.account();
  }, options.timeoutMs);
  afterAll(async () => {
    if (options.beforeStop) await options.beforeStop(suite);
    await suite.h?.stop();
  });
  return suite;
}

/**
 * Enough of a Services for an executions service of a test (`createExecutionsService`) on a
 * runtime's stores and actor system: its store, repositories and leases, without its actors.
 */
export function executionServicesOf(r: Runtime): Services {
  return {
    config: r.config,
    logger: silentLogger,
    documents: r.documents,
    cache: r.cache,
    system: r.system,
  } as unknown as Services;
}
