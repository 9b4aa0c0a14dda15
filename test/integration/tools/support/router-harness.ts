import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { ToolRouterOptions } from '../../../../actors/tools/router/tool-router';
import { REGISTER_RATE_LIMIT } from '../../../../actors/identity/agents.route';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';
import { createRateLimiter } from '../../../../src/store/cache';

/** A runtime for tool router tests: embedded everything, temp DATA_DIR, port 0. */
export interface RouterHarness {
  runtime: Runtime;
  url: string;
  http: () => ReturnType<typeof request>;
  /** A self-registered agent (`POST /register`) and its token. */
  agent(body?: Record<string, unknown>): Promise<{ token: string; name: string }>;
  /** An operator account (signup, retail_pro) and its bearer token. */
  account(): Promise<{ token: string; email: string }>;
  /** `POST /mcp` in the spec's dialect. */
  call(token: string, tool: string, input?: Record<string, unknown>): Promise<request.Response>;
  stop(): Promise<void>;
}

let seq = 0;

export async function startRouterHarness(
  tools: ToolRouterOptions = {},
  env: Record<string, string> = {},
): Promise<RouterHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-tools-'));
  const runtime = await startRuntime(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      JWT_SECRET: randomBytes(24).toString('hex'),
      SANDBOX_THREADS: '2',
      ...env,
    }),
    silentLogger,
    {
      identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } },
      tools: { routeRecords: { flushIntervalMs: 50 }, ...tools },
    },
  );
  const url = runtime.http!.url;
  const http = () => request(url);
  const registrations = createRateLimiter(runtime.cache, {
    keyPrefix: `rl:${REGISTER_RATE_LIMIT.name}`,
    points: REGISTER_RATE_LIMIT.points,
    durationSec: REGISTER_RATE_LIMIT.durationSec,
  });

  const agent = async (body: Record<string, unknown> = {}) => {
    // Many registrations per file: keep the per-address budget fresh.
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1']) await registrations.reset(`:${ip}`);
    const name = `tools-agent ${process.pid}-${++seq}-${randomBytes(3).toString('hex')}`;
    const res = await http()
      .post('/register')
      .send({ name, ...body });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.token as string, name };
  };

  const account = async () => {
    const email = `tools-${randomBytes(6).toString('hex')}@example.com`;
    const res = await http()
      .post('/api/signup')
      .send({ email, password: 'correct horse battery', accountType: 'retail', selectedPlan: 'retail_pro' });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.credentials.bearerToken as string, email };
  };

  const call = (token: string, tool: string, input?: Record<string, unknown>) =>
    http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .send(input === undefined ? { tool } : { tool, input });

  return {
    runtime,
    url,
    http,
    agent,
    account,
    call,
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { eventually } from '../../../support/async';
