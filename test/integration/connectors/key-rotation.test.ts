import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type request from 'supertest';
import { createConnectorTools } from '../../../actors/connectors/connector-tools';
import { rekeyConnectors } from '../../../actors/connectors/connector-rekey';
import { ConnectorSealer } from '../../../actors/connectors/connector-secrets';
import { connectorsCollection } from '../../../actors/connectors/connectors.collection';
import { deriveKey, masterKeyId, seal } from '../../../actors/vault/sealing';
import { silentLogger } from '../../../src/logging/logger';
import { LogCapture } from '../vault/support/vault-harness';
import { eventually, startConnectorsHarness, type ConnectorsHarness } from './support/connectors-harness';
import { startTestMcpServer, type TestMcpServer } from './support/test-mcp-server';
import { subjectOf } from '../../support/token-claims';

/**
 * Connector values across a vault master key rotation (docs/connectors.md, "Master key rotation"):
 * headers sealed under key 1 (and one connector in the format from before key ids) survive a
 * restart on key 2 with key 1 as VAULT_MASTER_KEY_PREVIOUS, and are stored under key 2 (by the
 * first use, and by the startup pass); on key 2 alone, a clear error naming the connector and the
 * header, shown by the connector's health. The test server refuses any request without the exact
 * `Authorization` value, so "it works" means the value was opened right. No value leaks anywhere.
 */

const key1 = randomBytes(32).toString('hex');
const key2 = randomBytes(32).toString('hex');
const id1 = masterKeyId(Buffer.from(key1, 'hex'));
const id2 = masterKeyId(Buffer.from(key2, 'hex'));
const jwtSecret = randomBytes(24).toString('hex');
const AUTHORIZATION = `Bearer rotation-${randomBytes(16).toString('hex')}`;
const SLUGS = ['calc', 'idle', 'legacy'] as const;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-connectors-rekey-'));
const logs = new LogCapture();
/** Every answer the service gave in this file, and every error a call rejected with. */
const answers: string[] = [];

let h: ConnectorsHarness | undefined;
let server: TestMcpServer;
let account: { token: string; auth: string };
let accountId: string;

const start = async (env: Record<string, string>) => {
  await h?.stop();
  h = await startConnectorsHarness(
    { JWT_SECRET: jwtSecret, LOG_LEVEL: 'trace', ...env },
    {},
    {
      dir,
      logger: logs.logger(),
    },
  );
  return h;
};
const recorded = async (req: request.Test) => {
  const res = await req;
  answers.push(res.text ?? '');
  return res;
};
const get = (slug: string) =>
  recorded(h!.http().get(`/api/connectors/${slug}`).set('Authorization', account.auth));
const call = async (slug: string, message: string) => {
  try {
    return await createConnectorTools(h!.runtime.system).callConnectorTool(accountId, slug, 'echo', {
      message,
    });
  } catch (err) {
    answers.push(JSON.stringify(err), String(err));
    throw err;
  }
};
const connectorDoc = async (slug: string) =>
  (await h!.runtime.documents.repository(connectorsCollection).findOne({ accountId, slug }))!;
const storedValues = async (slug: string) => (await connectorDoc(slug)).headers.map((p) => p.value);
const allUnder = (values: readonly string[], keyId: string) =>
  values.length > 0 && values.every((v) => v.startsWith(`v2.${keyId}.`));

beforeAll(async () => {
  server = await startTestMcpServer({ authorization: AUTHORIZATION });
  await start({ VAULT_MASTER_KEY: key1 });
  account = await h!.account();
  accountId = subjectOf(account.token, jwtSecret);
  for (const slug of SLUGS) {
    const res = await recorded(
      h!
        .http()
        .post('/api/connectors')
        .set('Authorization', account.auth)
        .send({
          slug,
          transport: 'http',
          url: server.url,
          headers: { Authorization: AUTHORIZATION, 'X-Tenant': 'acme' },
        }),
    );
    expect(res.status).toBe(201);
    expect(allUnder(await storedValues(slug), id1)).toBe(true);
  }
  // `legacy` as stored before key ids: `v1`, under key 1's connector key.
  const legacy = await connectorDoc('legacy');
  const key = deriveKey(Buffer.from(key1, 'hex'), 'ars/connectors/v1');
  const headers = [
    ['Authorization', AUTHORIZATION],
    ['X-Tenant', 'acme'],
  ].map(([name, value]) => ({
    name: name!,
    value: seal(key, value!, `${legacy._id}\u0000${name}`),
    secret: name === 'Authorization',
  }));
  await h!.runtime.documents.db.collection('connectors').updateOne({ _id: legacy._id } as never, {
    $set: { headers },
  });
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await server.stop().catch(() => undefined);
  try {
    // Neither the header value nor the master keys appear in a log line, an answer or a data file.
    expect(logs.text()).toContain('request completed');
    const files = filesUnder(dir);
    expect(files.some((f) => f.includes('journal') || f.includes('snapshot'))).toBe(true);
    for (const needle of [AUTHORIZATION, AUTHORIZATION.slice('Bearer '.length), key1, key2]) {
      expect(logs.text().includes(needle)).toBe(false);
      expect(answers.filter((a) => a.includes(needle))).toEqual([]);
      for (const file of files) expect(fs.readFileSync(file).includes(Buffer.from(needle))).toBe(false);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('connector values across a master key rotation', () => {
  it('on key 2 alone: a clear error naming the connector and the header, shown by the health', async () => {
    await start({ VAULT_MASTER_KEY: key2 });
    const err = await call('calc', 'key 2 alone').catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'UNAVAILABLE',
      details: { reason: 'connector_key_unknown', keyId: id1, slug: 'calc', header: 'Authorization' },
    });
    expect((err as Error).message).toMatch(
      new RegExp(
        `^MCP connector "calc": header Authorization is sealed under master key ${id1}.*VAULT_MASTER_KEY_PREVIOUS`,
      ),
    );

    // Through the router too: 503 with the same message (an operator's configuration problem).
    const viaRouter = await recorded(
      h!
        .http()
        .post('/mcp')
        .set('Authorization', account.auth)
        .send({ tool: 'mcp.calc.echo', input: { message: 'x' } }),
    );
    expect(viaRouter.status).toBe(503);
    expect(viaRouter.body).toMatchObject({
      code: 'UNAVAILABLE',
      reason: 'connector_key_unknown',
      header: 'Authorization',
      error: expect.stringContaining('header Authorization is sealed under master key'),
    });

    // The health shows it; the listing still answers (values that do not open are masked).
    const shown = await get('calc');
    expect(shown.status).toBe(200);
    expect(shown.body.connector).toMatchObject({
      healthStatus: 'error',
      headers: { Authorization: '[redacted]', 'X-Tenant': '[redacted]' },
      lastAuditOutcome: { success: false, tool: 'echo' },
    });
    expect(shown.body.connector.lastError.message).toContain(
      `header Authorization is sealed under master key ${id1}`,
    );

    // The connector nobody used: the startup pass marked it (and logged ids only).
    await eventually(async () => (await get('idle')).body.connector.healthStatus === 'error');
    expect((await get('idle')).body.connector.lastError.message).toMatch(
      /MCP connector "idle": header Authorization/,
    );
    expect(logs.text()).toContain('connectors: value not re-sealed');

    // The one from before key ids carries no key id: the error says no key held opens it.
    const refresh = await recorded(
      h!.http().post('/api/connectors/legacy/refresh').set('Authorization', account.auth),
    );
    expect(refresh.status).toBe(200);
    expect(refresh.body.connector.healthStatus).toBe('error');
    expect(refresh.body.connector.lastError.message).toMatch(
      /MCP connector "legacy": header Authorization is sealed under a master key this service does not hold/,
    );

    // Nothing was re-sealed, and the server never saw a wrong credential.
    expect(allUnder(await storedValues('calc'), id1)).toBe(true);
    expect((await storedValues('legacy')).every((v) => v.startsWith('v1.'))).toBe(true);
    expect(server.requests.every((r) => r.authorization === AUTHORIZATION)).toBe(true);
  });

  it('on key 2 with key 1 previous: the connectors work and their values are stored under key 2', async () => {
    await start({ VAULT_MASTER_KEY: key2, VAULT_MASTER_KEY_PREVIOUS: key1 });
    await expect(call('calc', 'after rotation')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'echo: after rotation' }],
      isError: false,
    });
    // The use (or the startup pass, whichever came first) and the startup pass for the others.
    for (const slug of SLUGS) {
      await eventually(async () => allUnder(await storedValues(slug), id2));
      // Only the envelopes changed: not the configuration's version.
      expect((await connectorDoc(slug)).version).toBe(0);
    }
    // The key error is resolved: the health no longer shows it.
    for (const slug of SLUGS) {
      await eventually(async () => {
        const c = (await get(slug)).body.connector;
        return c.healthStatus === 'active' && c.lastError === null;
      });
    }
    expect((await get('calc')).body.connector.headers).toEqual({
      Authorization: '[redacted]',
      'X-Tenant': 'acme',
    });
    // Lazily, on use: values under key 1 again (as another node still on key 1 would have left
    // them; the startup pass is over) are re-sealed by the next use (here a refresh, which reads
    // the document afresh).
    const calc = await connectorDoc('calc');
    const underKey1 = new ConnectorSealer(Buffer.from(key1, 'hex')).sealAll(calc._id, {
      Authorization: AUTHORIZATION,
      'X-Tenant': 'acme',
    });
    await h!.runtime.documents.db
      .collection('connectors')
      .updateOne({ _id: calc._id } as never, { $set: { headers: underKey1 } });
    const refreshed = await recorded(
      h!.http().post('/api/connectors/calc/refresh').set('Authorization', account.auth),
    );
    expect(refreshed.body.connector).toMatchObject({ healthStatus: 'active', lastError: null });
    expect(allUnder(await storedValues('calc'), id2)).toBe(true);

    // A further pass finds nothing left to do.
    const repo = h!.runtime.documents.repository(connectorsCollection);
    const sealer = new ConnectorSealer(Buffer.from(key2, 'hex'), [Buffer.from(key1, 'hex')]);
    expect(await rekeyConnectors(repo, sealer, silentLogger)).toEqual({
      resealed: 0,
      current: SLUGS.length,
      unreadable: 0,
      skipped: 0,
    });
  });

  it('after the re-sealing, key 2 alone opens every connector (the previous key can be dropped)', async () => {
    await start({ VAULT_MASTER_KEY: key2 });
    for (const slug of SLUGS) {
      await expect(call(slug, `${slug} on key 2`)).resolves.toMatchObject({
        content: [{ type: 'text', text: `echo: ${slug} on key 2` }],
      });
    }
    expect(server.requests.every((r) => r.authorization === AUTHORIZATION)).toBe(true);
  });
});

describe('ConnectorSealer with previous keys', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const ref = { _id: 'con_1', slug: 'gh' };

  it('opens values under a previous key, and hands them back re-sealed under the current one', () => {
    const pairs = new ConnectorSealer(k1).sealAll('con_1', { API_TOKEN: 'tok-1', MODE: 'test' });
    const rotated = new ConnectorSealer(k2, [k1]);
    const opened = rotated.openPairs(ref, 'env', pairs);
    expect(opened.values).toEqual({ API_TOKEN: 'tok-1', MODE: 'test' });
    expect(opened.resealed?.map((p) => rotated.isCurrent(p.value))).toEqual([true, true]);
    expect(opened.resealed?.map((p) => p.secret)).toEqual([true, false]);
    // Already current: nothing to store.
    expect(new ConnectorSealer(k2).openPairs(ref, 'env', opened.resealed!)).toEqual({
      values: opened.values,
    });
  });

  it('reads v1 values under the current or a previous key (the tag decides), never under another', () => {
    const v1 = (master: Buffer) =>
      seal(deriveKey(master, 'ars/connectors/v1'), 'legacy', 'con_1\u0000API_TOKEN');
    const pair = (value: string) => [{ name: 'API_TOKEN', value, secret: true }];
    const rotated = new ConnectorSealer(k2, [k1]);
    for (const master of [k1, k2]) {
      const opened = rotated.openPairs(ref, 'env', pair(v1(master)));
      expect(opened.values.API_TOKEN).toBe('legacy');
      expect(rotated.isCurrent(opened.resealed![0]!.value)).toBe(true);
    }
    expect(() => new ConnectorSealer(k2).openPairs(ref, 'env', pair(v1(k1)))).toThrow(
      /MCP connector "gh": environment variable API_TOKEN is sealed under a master key this service does not hold/,
    );
  });

  it('names the connector, the variable and the key id of an unknown key; never the value', () => {
    const pairs = new ConnectorSealer(k1).sealAll('con_1', { API_TOKEN: 'secret-value-123' });
    let caught: unknown;
    try {
      new ConnectorSealer(k2).openPairs(ref, 'env', pairs);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: false,
      details: { reason: 'connector_key_unknown', keyId: masterKeyId(k1), slug: 'gh', variable: 'API_TOKEN' },
    });
    expect(JSON.stringify(caught) + String(caught)).not.toContain('secret-value-123');
    // Shown masked rather than failing the listing.
    expect(new ConnectorSealer(k2).showAll('con_1', pairs)).toEqual({ API_TOKEN: '[redacted]' });
  });

  it('refuses a value moved to another connector or name, and an altered one, under a known key', () => {
    const sealer = new ConnectorSealer(k2, [k1]);
    const [pair] = new ConnectorSealer(k1).sealAll('con_1', { API_TOKEN: 'tok' });
    for (const [r, name] of [
      [{ _id: 'con_2', slug: 'other' }, 'API_TOKEN'],
      [ref, 'OTHER'],
    ] as const) {
      expect(() => sealer.openPairs(r, 'env', [{ ...pair!, name }])).toThrow(/cannot decrypt/);
    }
    const parts = pair!.value.split('.');
    parts[4] = Buffer.from('other').toString('base64url');
    expect(() => sealer.openPairs(ref, 'env', [{ ...pair!, value: parts.join('.') }])).toThrow(
      expect.objectContaining({
        code: 'INTERNAL_ERROR',
        message: expect.stringMatching(/MCP connector "gh": cannot decrypt environment variable API_TOKEN/),
      }),
    );
  });
});

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(root, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}
