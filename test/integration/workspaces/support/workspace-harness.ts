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
  /**
   * `POST /api/workspaces/{id}/members`, then, for an invitation (202: another account or another
   * account's agent), its acceptance by the invitee (an account of this harness, or the account of
   * an agent of this harness): the member id.
   */
  addMember(owner: TestAccount, workspaceId: string, body: object): Promise<string>;
  /** `POST /api/workspaces/{id}/members` alone (202 expected): the invitation id. */
  invite(owner: TestAccount, workspaceId: string, body: object): Promise<string>;
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
  // Who answers an invitation: the account with that email, the account of the agent.
  const tokenOfEmail = new Map<string, string>();
  const tokenOfAgentRef = new Map<string, string>();
  const postMember = (owner: TestAccount, workspaceId: string, body: object) =>
    http().post(`/api/workspaces/${workspaceId}/members`).set(bearer(owner.token)).send(body);
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
      tokenOfEmail.set(email, res.body.credentials.bearerToken as string);
      return { email, token: res.body.credentials.bearerToken as string };
    },
    agent: async (owner, name = `bot-${randomBytes(3).toString('hex')}`) => {
      const res = await http().post('/api/agents').set(bearer(owner.token)).send({ name });
      expectStatus(res, 201, 'deploy agent');
      tokenOfAgentRef.set(res.body.agent.agentRef as string, owner.token);
      return { agentRef: res.body.agent.agentRef as string, key: res.body.apiKey as string };
    },
    workspace: async (owner, name) => {
      const res = await http().post('/api/workspaces').set(bearer(owner.token)).send({ name });
      return expectStatus(res, 201, 'create workspace').body.workspace.id as string;
    },
    addMember: async (owner, workspaceId, body) => {
      const res = await postMember(owner, workspaceId, body);
      if (res.status === 201) return res.body.member.id as string;
      const invitationId = expectStatus(res, 202, 'add member').body.invitation.id as string;
      const given = body as { email?: string; agentRef?: string; agentId?: string };
      const invitee = given.email
        ? tokenOfEmail.get(given.email.toLowerCase())
        : tokenOfAgentRef.get(given.agentRef ?? given.agentId ?? '');
      if (!invitee) throw new Error('add member: the invitee is not an account or agent of this harness');
      const accepted = await http()
        .post(`/api/workspace-invitations/${invitationId}/accept`)
        .set(bearer(invitee))
        .send({});
      return expectStatus(accepted, 200, 'accept invitation').body.member.id as string;
    },
    invite: async (owner, workspaceId, body) => {
      const res = await postMember(owner, workspaceId, body);
      return expectStatus(res, 202, 'invite').body.invitation.id as string;
    },
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
