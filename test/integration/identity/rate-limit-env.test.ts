import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { memoryLogger } from '../../unit/http/support/test-app';

/**
 * Rate limits come from the environment (issue 15, item 12): no limit is given in code here, so
 * what the runtime enforces is what the variables say.
 */

const dirs: string[] = [];
const runtimes: Runtime[] = [];

async function boot(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-limits-env-'));
  dirs.push(dir);
  const { logger, lines } = memoryLogger('warn');
  const runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex'), ...env }),
    logger,
    { identity: { bcryptCost: 4 } },
  );
  runtimes.push(runtime);
  return { http: () => request(runtime.http!.url), lines };
}

afterAll(async () => {
  for (const runtime of runtimes) await runtime.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const signupBody = () => ({
  email: `limits-${randomBytes(6).toString('hex')}@example.com`,
  password: 'correct horse battery',
  accountType: 'retail',
  selectedPlan: 'retail_free',
});
const registerBody = () => ({ name: `limits-agent ${randomBytes(4).toString('hex')}` });

describe('RATE_LIMITS=off', () => {
  it('lets an integration suite sign up and register past the default limits, and says so at boot', async () => {
    const { http, lines } = await boot({ RATE_LIMITS: 'off', RATE_LIMIT_TOOL_CALLS_PER_AGENT: '2/1m' });
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringContaining('RATE_LIMITS=off') }),
    );
    // The default is 20 signups per address per 10 minutes, and 20 registrations per hour.
    for (let i = 0; i < 25; i++) {
      const res = await http().post('/api/signup').send(signupBody());
      expect(res.status).toBe(201);
    }
    let agentToken = '';
    for (let i = 0; i < 22; i++) {
      const res = await http().post('/register').send(registerBody());
      expect(res.status).toBe(201);
      agentToken = res.body.token;
    }
    // The tool-call limit is not one RATE_LIMITS=off lifts; its variable sets it.
    const call = () =>
      http()
        .post('/mcp')
        .set('Authorization', `Bearer ${agentToken}`)
        .send({ tool: 'mem_get', input: { key: 'k' } });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const third = await call();
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('one variable per limit, and TRUST_PROXY', () => {
  it('enforces RATE_LIMIT_SIGNUP_PER_IP and RATE_LIMIT_REGISTER_PER_IP per forwarded address', async () => {
    const { http } = await boot({
      RATE_LIMIT_SIGNUP_PER_IP: '2/10m',
      RATE_LIMIT_REGISTER_PER_IP: '2/1h',
      TRUST_PROXY: 'loopback',
    });
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let i = 0; i < 2; i++) {
      expect((await http().post('/api/signup').set(from('203.0.113.1')).send(signupBody())).status).toBe(201);
    }
    const refused = await http().post('/api/signup').set(from('203.0.113.1')).send(signupBody());
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    // Another client behind the same proxy has its own budget.
    expect((await http().post('/api/signup').set(from('203.0.113.2')).send(signupBody())).status).toBe(201);

    for (let i = 0; i < 2; i++) {
      expect((await http().post('/register').set(from('198.51.100.7')).send(registerBody())).status).toBe(
        201,
      );
    }
    expect((await http().post('/register').set(from('198.51.100.7')).send(registerBody())).status).toBe(429);
  });
});
