import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A runtime for skill store tests: embedded stores, temp DATA_DIR, port 0 (env overrides: AMQP, …). */
export interface SkillsHarness {
  runtime: Runtime;
  http: () => ReturnType<typeof request>;
  /** A new account; its bearer token (retail_pro unless an enterprise plan is asked for). */
  account(plan?: 'retail_pro' | 'enterprise_plus', agentName?: string): Promise<string>;
  /** A deployed agent of the account: its key. */
  agent(accountToken: string, body?: Record<string, unknown>): Promise<string>;
  install(token: string, body: Record<string, unknown>): Promise<request.Response>;
  use(
    token: string,
    slug: string,
    capability: string,
    params?: Record<string, unknown>,
  ): Promise<request.Response>;
  stop(): Promise<void>;
}

export async function startSkillsHarness(
  env: Record<string, string> = {},
  options: RuntimeOptions = {},
): Promise<SkillsHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-skills-'));
  const runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex'), ...env }),
    process.env.SKILLS_DEBUG ? require('pino')({ level: 'error' }) : silentLogger,
    {
      identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } },
      ...options,
    },
  );
  const url = runtime.http!.url;
  const http = () => request(url);
  return {
    runtime,
    http,
    account: async (plan = 'retail_pro', agentName) => {
      const email = `skills-${randomBytes(6).toString('hex')}@example.com`;
      const res = await http()
        .post('/api/signup')
        .send({
          email,
          password: 'correct horse battery',
          accountType: plan === 'retail_pro' ? 'retail' : 'enterprise',
          selectedPlan: plan,
          ...(agentName ? { agentName } : {}),
        });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.credentials.bearerToken as string;
    },
    agent: async (token, body = {}) => {
      const res = await http()
        .post('/api/agents')
        .set(bearer(token))
        .send({ name: `agent-${randomBytes(4).toString('hex')}`, ...body });
      if (res.status !== 201) throw new Error(`agent failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.apiKey as string;
    },
    install: (token, body) => http().post('/api/skills/install').set(bearer(token)).send(body),
    use: (token, slug, capability, params = {}) =>
      http().post('/api/skills/use').set(bearer(token)).send({ skill_slug: slug, capability, params }),
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
