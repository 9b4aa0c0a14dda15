import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';

/** A running runtime (embedded everything, or the given services) for identity tests. */
export interface IdentityHarness {
  runtime: Runtime;
  /** Base URL of the front door. */
  url: string;
  /** A supertest client on the front door. */
  http: () => ReturnType<typeof request>;
  /** A fresh operator account (real signup, plan retail_pro) and its bearer token. */
  account(): Promise<{ token: string; email: string }>;
  stop(): Promise<void>;
}

/** Signups per test file exceed the per-IP limit of production: lift it, and hash passwords cheaply. */
const TEST_IDENTITY = {
  bcryptCost: 4,
  limits: { signupPerIp: { points: 10_000, durationSec: 600 } },
};

/** Starts a runtime on a temp DATA_DIR and port 0. `env` adds configuration (REDIS_URL, ...). */
export async function startIdentityHarness(env: Record<string, string> = {}): Promise<IdentityHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-identity-'));
  const runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex'), ...env }),
    silentLogger,
    { identity: TEST_IDENTITY },
  );
  const url = runtime.http!.url;
  const http = () => request(url);
  const account = async () => {
    const email = `op-${randomBytes(6).toString('hex')}@example.com`;
    const res = await http()
      .post('/api/signup')
      .send({ email, password: 'correct horse battery', accountType: 'retail', selectedPlan: 'retail_pro' });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.credentials.bearerToken as string, email };
  };

  return {
    runtime,
    url,
    http,
    account,
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `Authorization` header value. */
export const bearer = (token: string) => `Bearer ${token}`;

export { eventually } from '../../../support/async';
