import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';

/** An account signed up through the API. */
export interface TestAccount {
  email: string;
  token: string;
}

/** An agent deployed by an account (`POST /api/agents`). */
export interface TestAgent {
  agentRef: string;
  key: string;
}

export interface WorkspaceHarness {
  runtime: Runtime;
  http: () => ReturnType<typeof request>;
  account(): Promise<TestAccount>;
  agent(owner: TestAccount, name?: string): Promise<TestAgent>;
  /** `POST /api/workspaces` (201 expected): the workspace id. */
  workspace(owner: TestAccount, name: string): Promise<string>;
  /** `POST /api/workspaces/{id}/members` (201 expected): the member id. */
  addMember(owner: TestAccount, workspaceId: string, body: object): Promise<string>;
  stop(): Promise<void>;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A runtime on a temp DATA_DIR and port 0 (env overrides: REDIS_URL, …). */
export async function startWorkspaceHarness(env: Record<string, string> = {}): Promise<WorkspaceHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-ws-'));
  const runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex'), ...env }),
    silentLogger,
    { identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } } },
  );
  const http = () => request(runtime.http!.url);
  const expectStatus = (res: request.Response, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  return {
    runtime,
    http,
    account: async () => {
      const email = `ws-${randomBytes(6).toString('hex')}@example.com`;
      const res = await http().post('/api/signup').send({
        email,
        password: 'correct horse battery',
        accountType: 'retail',
        selectedPlan: 'retail_pro',
      });
      expectStatus(res, 201, 'signup');
      return { email, token: res.body.credentials.bearerToken as string };
    },
    agent: async (owner, name = `bot-${randomBytes(3).toString('hex')}`) => {
      const res = await http().post('/api/agents').set(bearer(owner.token)).send({ name });
      expectStatus(res, 201, 'deploy agent');
      return { agentRef: res.body.agent.agentRef as string, key: res.body.apiKey as string };
    },
    workspace: async (owner, name) => {
      const res = await http().post('/api/workspaces').set(bearer(owner.token)).send({ name });
      return expectStatus(res, 201, 'create workspace').body.workspace.id as string;
    },
    addMember: async (owner, workspaceId, body) => {
      const res = await http()
        .post(`/api/workspaces/${workspaceId}/members`)
        .set(bearer(owner.token))
        .send(body);
      return expectStatus(res, 201, 'add member').body.member.id as string;
    },
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
