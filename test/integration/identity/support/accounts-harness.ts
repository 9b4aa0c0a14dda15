import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { IdentityLimits, IdentityOptions } from '../../../../actors/identity/identity-options';
import { RevokedTokensRepo } from '../../../../actors/identity/revoked-tokens.repo';
import { TokenService } from '../../../../actors/identity/token-service';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger, type Logger } from '../../../../src/logging/logger';

/** Limits so high that only the rate-limit tests ever meet them. */
export const NO_LIMITS: IdentityLimits = Object.fromEntries(
  [
    'signinPerIp',
    'signinPerIpEmail',
    'signinPerEmail',
    'signupPerIp',
    'signupPerEmail',
    'forgotPerIp',
    'forgotPerEmail',
    'confirmPerIp',
    'confirmPerEmail',
    'fromKeyPerIp',
    'sessionTokenPerAccount',
  ].map((k) => [k, { points: 100_000, durationSec: 1 }]),
) as unknown as IdentityLimits;

export const PASSWORD = 'correct horse battery';

/** Internal ids the service must never put in a body (accounts, workspaces, agents, tokens, records). */
const INTERNAL_ID = /\b(acc|ws|agt|pt|tok|ntk)_[A-Za-z0-9]{6,}/;

/** Every response a harness client saw, for the "no internal id in any body" check. */
export const seenBodies: Array<{ url: string; text: string }> = [];

export function assertNoInternalIds(): void {
  for (const { url, text } of seenBodies) {
    if (INTERNAL_ID.test(text)) throw new Error(`internal id in the body of ${url}: ${text.slice(0, 300)}`);
  }
}

/** A runtime on a temp DATA_DIR, port 0, bcrypt cost 4, no limits (unless given), and its clients. */
export interface AccountsHarness {
  runtime: Runtime;
  url: string;
  dir: string;
  jwtSecret: string;
  /** A new cookie-keeping client (a "browser"); every response is recorded for the id scan. */
  client(): ReturnType<typeof request.agent>;
  /** Signs up a fresh account with `client` (its cookie jar gets the session). */
  signup(client: ReturnType<typeof request.agent>, fields?: Record<string, unknown>): Promise<SignedUp>;
  /** A TokenService on this runtime's secret, cache and revocation store (`ttlMs` for expiry tests). */
  tokens(ttlMs?: number): TokenService;
  /** Stops and starts the runtime again on the same DATA_DIR (embedded: the cache starts empty). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface SignedUp {
  email: string;
  agentName: string;
  token: string | null;
  body: Record<string, unknown>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  identity?: IdentityOptions;
  logger?: Logger;
}

export async function startAccountsHarness(options: HarnessOptions = {}): Promise<AccountsHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-accounts-'));
  const jwtSecret = randomBytes(24).toString('hex');
  const identity: IdentityOptions = {
    bcryptCost: 4,
    ...options.identity,
    limits: { ...NO_LIMITS, ...options.identity?.limits },
  };
  const boot = () =>
    startRuntime(
      loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: jwtSecret, ...options.env }),
      options.logger ?? silentLogger,
      { identity },
    );
  let runtime = await boot();

  const harness: AccountsHarness = {
    get runtime() {
      return runtime;
    },
    get url() {
      return runtime.http!.url;
    },
    dir,
    jwtSecret,
    client() {
      return request.agent(runtime.http!.url).use((req: request.Test) => {
        req.on('response', (res: { text?: string }) => {
          seenBodies.push({ url: req.url, text: res.text ?? '' });
        });
      });
    },
    async signup(client, fields = {}) {
      const suffix = randomBytes(5).toString('hex');
      const email = `user-${suffix}@example.com`;
      const agentName = `Agent ${suffix}`;
      const res = await client.post('/api/signup').send({
        email,
        password: PASSWORD,
        agentName,
        accountType: 'retail',
        selectedPlan: 'retail_pro',
        ...fields,
      });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
      return {
        email: (fields.email as string | undefined)?.trim().toLowerCase() ?? email,
        agentName: (fields.agentName as string | undefined) ?? agentName,
        token: res.body.credentials.bearerToken,
        body: res.body,
      };
    },
    tokens(ttlMs) {
      return new TokenService(runtime.secrets.jwtSecret, runtime.cache, ttlMs, {
        revocations: new RevokedTokensRepo(runtime.documents),
      });
    },
    async restart() {
      await runtime.stop();
      runtime = await boot();
    },
    async stop() {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** `Authorization` header value. */
export const bearer = (token: string) => `Bearer ${token}`;

/** The mails in `DATA_DIR/outbox` (decoded enough to read the reset token). */
export function readOutbox(dir: string): Array<{ file: string; raw: string }> {
  const outbox = path.join(dir, 'outbox');
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => ({ file, raw: fs.readFileSync(path.join(outbox, file), 'utf8') }));
}

/** The reset token of the last mail to `email` in the outbox, if any. */
export function resetTokenFor(dir: string, email: string): string | undefined {
  const mails = readOutbox(dir).filter((m) => m.raw.includes(`To: ${email}`));
  const last = mails.at(-1);
  return last?.raw.match(/Reset token: ([A-Za-z0-9_-]+)/)?.[1];
}

/** The `ars.sid` value of a Set-Cookie header, if any. */
export function sessionCookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const header = res.headers['set-cookie'] as string[] | string | undefined;
  const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return list.find((c) => c.startsWith('ars.sid='))?.split(';')[0];
}

export { eventually } from '../../../support/async';
