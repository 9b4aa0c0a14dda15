import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { VaultOptions } from '../../../../actors/vault/vault';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { createLogger, type Logger } from '../../../../src/logging/logger';
import { subjectOf } from '../../../support/token-claims';

/** Everything a runtime logged, as text (pino JSON lines). */
export class LogCapture {
  private readonly chunks: string[] = [];
  readonly stream = new Writable({
    write: (chunk: Buffer | string, _enc, done) => {
      this.chunks.push(chunk.toString());
      done();
    },
  });

  /** A logger at `trace` (everything the service may log) writing here, with the service's redaction. */
  logger(nodeId?: string): Logger {
    return createLogger({ level: 'trace', nodeId, destination: this.stream });
  }

  text(): string {
    return this.chunks.join('');
  }
}

/** A clock tests move forward (grants, credentials and the audit log read it). */
export class TestClock {
  offsetMs = 0;
  readonly now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Seen {
  url: string;
  status: number;
  text: string;
  /** The answer may hold a secret value: a successful consume, or the minting of a runtime credential. */
  reveals: boolean;
}

export interface Account {
  token: string;
  auth: string;
  accountId: string;
  workspaceId: string;
}

export interface VaultClient {
  post(url: string, auth: string | undefined, body?: object): Promise<request.Response>;
  get(url: string, auth?: string): Promise<request.Response>;
  patch(url: string, auth: string, body: object): Promise<request.Response>;
  del(url: string, auth: string, body?: object): Promise<request.Response>;
  /** `POST /api/vault/runtime-grants/consume`; a 200 consume may reveal a value. */
  consume(auth: string | undefined, body: object): Promise<request.Response>;
}

/** Every answer any harness client saw in this test file. */
export const seen: Seen[] = [];

export interface ClientOptions {
  /**
   * Sends a request again when it was refused with 503 and `mayHaveRun: false` (the command never
   * left this node, e.g. during a broker reconnect): that answer is documented as safe to retry,
   * and a cluster test that is not about outages should not fail on one.
   */
  retryUnsent?: boolean;
}

const UNSENT_RETRIES = 40;
const UNSENT_PAUSE_MS = 250;

export function clientFor(baseUrl: () => string, options: ClientOptions = {}): VaultClient {
  const record = async (make: () => request.Test, reveals = false) => {
    let req = make();
    let res = await req;
    for (let i = 0; options.retryUnsent && i < UNSENT_RETRIES; i++) {
      if (res.status !== 503 || res.body?.mayHaveRun !== false) break;
      await new Promise((r) => setTimeout(r, UNSENT_PAUSE_MS));
      req = make();
      res = await req;
    }
    const ok = res.status >= 200 && res.status < 300;
    seen.push({ url: req.url, status: res.status, text: res.text ?? '', reveals: reveals && ok });
    return res;
  };
  const withAuth = (req: request.Test, auth: string | undefined) =>
    auth ? req.set('Authorization', auth) : req;
  return {
    // Minting a runtime credential is its one-time reveal.
    post: (url, auth, body = {}) =>
      record(() => withAuth(request(baseUrl()).post(url), auth).send(body), url === '/api/sdk/credentials'),
    get: (url, auth) => record(() => withAuth(request(baseUrl()).get(url), auth)),
    patch: (url, auth, body) => record(() => withAuth(request(baseUrl()).patch(url), auth).send(body)),
    del: (url, auth, body) =>
      record(() => {
        const req = withAuth(request(baseUrl()).delete(url), auth);
        return body ? req.send(body) : req;
      }),
    consume: (auth, body) =>
      record(
        () => withAuth(request(baseUrl()).post('/api/vault/runtime-grants/consume'), auth).send(body),
        true,
      ),
  };
}

export interface VaultHarness {
  runtime: Runtime;
  dir: string;
  clock: TestClock;
  logs: LogCapture;
  api: VaultClient;
  /** A fresh account (real signup); enterprise_plus unless told otherwise. */
  account(plan?: 'enterprise_plus' | 'retail_pro' | 'retail_free'): Promise<Account>;
  /** Mints a runtime credential for the account; resolves its value (`sdk_…`). */
  credential(owner: Account, body?: object): Promise<string>;
  /** A secret assigned to a subject, and a grant of it; resolves the grant id. */
  grant(owner: Account, body: object): Promise<request.Response>;
  /** Stops the runtime (the data directory stays, for the leak check). */
  stop(): Promise<void>;
  /** Removes the data directory. */
  cleanup(): void;
}

/** A runtime on a temp DATA_DIR and port 0, logging everything to a capture, with a movable vault clock. */
export async function startVaultHarness(
  options: {
    env?: Record<string, string>;
    vault?: Omit<VaultOptions, 'now'>;
    /** A data directory to reuse (a restart); default a new temporary one. */
    dir?: string;
    /** Where the runtime logs (a restart may keep one capture); default a new one. */
    logs?: LogCapture;
  } = {},
): Promise<VaultHarness> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ars-vault-'));
  const clock = new TestClock();
  const logs = options.logs ?? new LogCapture();
  const runtime = await startRuntime(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      JWT_SECRET: randomBytes(24).toString('hex'),
      VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'trace',
      ...options.env,
    }),
    logs.logger(),
    {
      identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } },
      vault: { now: clock.now, ...options.vault },
    },
  );
  const api = clientFor(() => runtime.http!.url);
  return {
    runtime,
    dir,
    clock,
    logs,
    api,
    account: (plan = 'enterprise_plus') => signup(api, runtime, plan),
    credential: (owner, body = {}) => mintCredential(api, owner, body),
    grant: (owner, body) => api.post('/api/vault/access', owner.auth, body),
    stop: () => runtime.stop(),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export async function signup(
  api: VaultClient,
  runtime: Runtime,
  plan: 'enterprise_plus' | 'retail_pro' | 'retail_free' = 'enterprise_plus',
): Promise<Account> {
  const email = `vault-${randomBytes(6).toString('hex')}@example.com`;
  const res = await api.post('/api/signup', undefined, {
    email,
    password: 'correct horse battery',
    accountType: plan.startsWith('enterprise') ? 'enterprise' : 'retail',
    selectedPlan: plan,
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  const token = res.body.credentials.bearerToken as string | null;
  if (!token) throw new Error(`plan ${plan} has no bearer token: use a session for it`);
  const accountId = subjectOf(token, runtime.secrets.jwtSecret);
  const ws = await runtime.documents.db
    .collection<{ _id: string }>('workspaces')
    .findOne({ ownerAccountId: accountId, isDefault: true });
  if (!ws) throw new Error('signup provisioned no default workspace');
  return { token, auth: `Bearer ${token}`, accountId, workspaceId: ws._id };
}

export async function mintCredential(api: VaultClient, owner: Account, body: object = {}): Promise<string> {
  const res = await api.post('/api/sdk/credentials', owner.auth, {
    name: `runtime-${randomBytes(4).toString('hex')}`,
    ...body,
  });
  if (res.status !== 201) throw new Error(`credential failed: ${res.status} ${res.text}`);
  return res.body.value as string;
}

/** A value no test could produce by accident, to search for afterwards. */
export function secretValue(label: string): string {
  return `${label}-${randomBytes(12).toString('hex')}-PLAINTEXT`;
}

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/**
 * The leak check: none of `values` appears in the captured logs, in any answer other than a
 * successful consume, or in any file under `dirs` (the embedded MongoDB's journal and snapshot,
 * the outbox, the secrets file…). Call it after the runtimes have stopped (the journal is flushed).
 */
export function assertNoLeaks(
  values: readonly string[],
  logs: readonly string[],
  dirs: readonly string[],
): void {
  expect(values.length).toBeGreaterThan(0);
  // The capture works: the runtime logged its requests.
  expect(logs.some((text) => text.includes('request completed'))).toBe(true);
  const files = dirs.flatMap(filesUnder);
  expect(files.some((f) => f.includes('journal') || f.includes('snapshot'))).toBe(true);
  for (const value of values) {
    for (const text of logs) expect(text.includes(value)).toBe(false);
    for (const answer of seen) {
      if (!answer.reveals && answer.text.includes(value)) {
        throw new Error(`secret value in the answer to ${answer.url} (${answer.status})`);
      }
    }
    const needle = Buffer.from(value, 'utf8');
    for (const file of files) {
      if (fs.readFileSync(file).includes(needle)) throw new Error(`secret value in ${file}`);
    }
  }
}

/** What `useVaultHarness` sets up for a test file; read it inside tests and hooks (set in `beforeAll`). */
export interface VaultSuite {
  h: VaultHarness;
}

/**
 * Registers `beforeAll`/`afterAll` for one runtime per file (`startVaultHarness(options)`, 60 s to
 * start). `afterAll` stops it, runs the leak check for `values` (read then, so a file may push to it
 * as it goes) over its logs and data directory, and removes the directory.
 */
export function useVaultHarness(
  values: readonly string[],
  options: Parameters<typeof startVaultHarness>[0] = {},
): VaultSuite {
  const suite = {} as VaultSuite;
  beforeAll(async () => {
    suite.h = await startVaultHarness(options);
  }, 60_000);
  afterAll(async () => {
    const { h } = suite;
    await h?.stop();
    if (h) assertNoLeaks(values, [h.logs.text()], [h.dir]);
    h?.cleanup();
  });
  return suite;
}
