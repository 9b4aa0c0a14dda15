import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openPrivateDatabases } from '../../../actors/tools/db';
import { agentSchemaName } from '../../../actors/tools/db/sql-builder';
import { silentLogger } from '../../../src/logging/logger';
import { serviceUrl } from '../../support/services';
import { eventually, startRouterHarness, type RouterHarness } from './support/router-harness';
import { subjectOf } from '../../support/token-claims';

/**
 * The `net_*` and `db_*` tools through the router (`POST /mcp` as registered agents), on a runtime
 * from `startRuntime`: ALLOW_LOOPBACK_HTTP on, the private databases on the real PostgreSQL when
 * it answers (else the embedded PGlite), and a second runtime with loopback refused and the
 * embedded PGlite. Also the work registry (`runtime.work.abortAll`, the panic button).
 */

const postgresUrl = serviceUrl('postgres');
const NET_TOOLS = ['net_dns_resolve', 'net_http_delete', 'net_http_get', 'net_http_post', 'net_http_put'];
const DB_TOOLS = ['db_create_table', 'db_delete', 'db_insert', 'db_query', 'db_transaction', 'db_update'];

const subOf = (token: string) => subjectOf(token, loopback.runtime.secrets.jwtSecret);

let loopback: RouterHarness;
let guarded: RouterHarness;
let server: http.Server;
let base: string;
/** Agents whose private databases this run created on PostgreSQL (dropped at the end). */
const pgAgents = new Set<string>();
const openSockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/slow') return; // never answers: the call waits until cancelled
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, method: req.method, path: req.url }));
  });
  server.on('connection', (socket) => {
    openSockets.add(socket);
    socket.once('close', () => openSockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [loopback, guarded] = await Promise.all([
    startRouterHarness(
      {},
      { ALLOW_LOOPBACK_HTTP: 'true', ...(postgresUrl ? { DATABASE_URL: postgresUrl } : {}) },
    ),
    startRouterHarness({}, { ALLOW_LOOPBACK_HTTP: 'false' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([loopback?.stop(), guarded?.stop()]);
  for (const socket of openSockets) socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
  if (postgresUrl && pgAgents.size > 0) {
    const dbs = openPrivateDatabases({ DATABASE_URL: postgresUrl, DATA_DIR: 'unused' }, silentLogger);
    for (const id of pgAgents) await dbs.dropAgent(id).catch(() => undefined);
    await dbs.close();
  }
}, 60_000);

/** A registered agent of the loopback runtime whose database is dropped afterwards (PostgreSQL). */
async function dbAgent(h: RouterHarness) {
  const agent = await h.agent();
  if (h === loopback && postgresUrl) pgAgents.add(subOf(agent.token));
  return agent;
}

describe('registry', () => {
  it('lists the net_* and db_* tools in /tools with object input schemas, and /health counts them', async () => {
    const res = await loopback.http().get('/tools');
    const tools = res.body.tools as Array<{ name: string; inputSchema: { type: string } }>;
    const names = tools.map((t) => t.name);
    for (const name of [...NET_TOOLS, ...DB_TOOLS]) {
      const tool = tools.find((t) => t.name === `platform.${name}`);
      expect(tool?.inputSchema.type).toBe('object');
    }
    expect(names).toEqual([...names].sort());
    expect((await loopback.http().get('/health')).body.tools).toBe(tools.length);
  });

  it('marks reads as read-only in MCP tools/list', async () => {
    const { token } = await loopback.agent();
    const res = await loopback
      .http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools = res.body.result.tools as Array<{ name: string; annotations: { readOnlyHint: boolean } }>;
    const readOnly = (name: string) =>
      tools.find((t) => t.name === `platform.${name}`)?.annotations.readOnlyHint;
    expect(readOnly('net_http_get')).toBe(true);
    expect(readOnly('net_dns_resolve')).toBe(true);
    for (const name of ['net_http_post', 'net_http_put', 'net_http_delete', ...DB_TOOLS]) {
      expect(readOnly(name)).toBe(false);
    }
  });
});

describe('net_* tools', () => {
  it('fetches a local server (loopback allowed) with every method', async () => {
    const { token } = await loopback.agent();
    const got = await loopback.call(token, 'net_http_get', { url: `${base}/hello` });
    expect(got.status).toBe(200);
    expect(got.body.success).toBe(true);
    expect(got.body.result).toMatchObject({
      status: 200,
      bodyEncoding: 'utf8',
      truncated: false,
      redirects: 0,
    });
    expect(JSON.parse(got.body.result.body)).toEqual({ ok: true, method: 'GET', path: '/hello' });

    const posted = await loopback.call(token, 'platform.net_http_post', { url: `${base}/p`, body: { a: 1 } });
    expect(JSON.parse(posted.body.result.body)).toMatchObject({ method: 'POST' });
    const put = await loopback.call(token, 'net_http_put', { url: `${base}/p`, body: 'text' });
    expect(JSON.parse(put.body.result.body)).toMatchObject({ method: 'PUT' });
    const deleted = await loopback.call(token, 'net_http_delete', { url: `${base}/p` });
    expect(JSON.parse(deleted.body.result.body)).toMatchObject({ method: 'DELETE' });
  });

  it("refuses a host outside the agent's allowedDomains (403)", async () => {
    const { token } = await loopback.agent({ allowedDomains: ['example.com'] });
    const res = await loopback.call(token, 'net_http_get', { url: `${base}/hello` });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'PERMISSION_DENIED', reason: 'allowlist' });
  });

  it('refuses loopback targets when ALLOW_LOOPBACK_HTTP is off (SSRF guard)', async () => {
    const { token } = await guarded.agent();
    for (const url of [`${base}/hello`, base.replace('127.0.0.1', 'localhost')]) {
      const res = await guarded.call(token, 'net_http_get', { url, allowHttp: true });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('PERMISSION_DENIED');
      expect(['ssrf', 'ip_literal']).toContain(res.body.reason);
    }
    const dns = await guarded.call(token, 'net_dns_resolve', { hostname: 'localhost' });
    expect(dns.status).toBe(403);
  });

  it('rejects invalid input before any request (400)', async () => {
    const { token } = await loopback.agent();
    const res = await loopback.call(token, 'net_http_get', { url: 'ftp://example.com/' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('db_* tools', () => {
  const roundTrip = async (h: RouterHarness) => {
    const { token } = await dbAgent(h);
    const created = await h.call(token, 'db_create_table', {
      table: 'Notes',
      schema: [
        { column: 'id', type: 'integer', primaryKey: true },
        { column: 'title', type: 'text' },
        { column: 'meta', type: 'jsonb' },
      ],
    });
    expect(created.body).toEqual({ success: true, result: { table: 'notes', created: true } });
    const inserted = await h.call(token, 'db_insert', {
      table: 'notes',
      data: [
        { id: 1, title: 'a', meta: { tags: ['x'] } },
        { id: 2, title: 'b', meta: null },
      ],
    });
    expect(inserted.body.result).toMatchObject({ inserted: 2, createdKeys: [{ id: 1 }, { id: 2 }] });
    const updated = await h.call(token, 'db_update', {
      table: 'notes',
      set: { title: 'B' },
      where: { id: 2 },
    });
    expect(updated.body.result).toEqual({ updated: 1 });
    const queried = await h.call(token, 'db_query', {
      sql: 'select id, title, meta from notes where id >= $1 order by id',
      params: [1],
    });
    expect(queried.status).toBe(200);
    expect(queried.body.result).toMatchObject({
      rows: [
        { id: 1, title: 'a', meta: { tags: ['x'] } },
        { id: 2, title: 'B', meta: null },
      ],
      rowCount: 2,
      truncated: false,
      command: 'SELECT',
    });
    const tx = await h.call(token, 'db_transaction', {
      statements: [
        { sql: "insert into notes (id, title) values (3, 'c')" },
        { sql: 'select count(*)::int as n from notes' },
      ],
    });
    expect(tx.body.result.results[1].rows).toEqual([{ n: 3 }]);
    expect((await h.call(token, 'db_delete', { table: 'notes', where: { id: 3 } })).body.result).toEqual({
      deleted: 1,
    });
    return token;
  };

  it(`round-trips create_table, insert, update, query, transaction, delete (${postgresUrl ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await roundTrip(loopback);
  }, 60_000);

  it('round-trips on the embedded PGlite', async () => {
    await roundTrip(guarded);
  }, 90_000);

  it("keeps each agent's database to itself", async () => {
    const a = await dbAgent(loopback);
    const b = await dbAgent(loopback);
    await loopback.call(a.token, 'db_create_table', {
      table: 'secrets',
      schema: [{ column: 'v', type: 'text' }],
    });
    await loopback.call(a.token, 'db_insert', { table: 'secrets', data: { v: 'only for a' } });

    const unqualified = await loopback.call(b.token, 'db_query', { sql: 'select * from secrets' });
    expect(unqualified.status).toBe(400);
    expect(unqualified.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', sqlstate: '42P01' });

    const schemaOfA = agentSchemaName(subOf(a.token), 'agent_');
    const qualified = await loopback.call(b.token, 'db_query', { sql: `select * from ${schemaOfA}.secrets` });
    expect(qualified.status).toBe(403);
    expect(qualified.body.success).toBe(false);

    const own = await loopback.call(a.token, 'db_query', { sql: 'select v from secrets' });
    expect(own.body.result.rows).toEqual([{ v: 'only for a' }]);
  }, 60_000);

  it('answers in the MCP (JSON-RPC) dialect too, with structured results and isError failures', async () => {
    const { token } = await dbAgent(loopback);
    const rpc = (id: number, name: string, args: Record<string, unknown>) =>
      loopback
        .http()
        .post('/mcp')
        .set('Authorization', `Bearer ${token}`)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const ok = await rpc(1, 'platform.db_query', { sql: 'select 1 + $1::int as two', params: [1] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { isError: false, structuredContent: { rows: [{ two: 2 }], rowCount: 1 } },
    });
    const refused = await rpc(2, 'db_query', {
      sql: 'select set_config($1, $2, false)',
      params: ['role', 'x'],
    });
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result.content[0].text).toMatch(/^PERMISSION_DENIED: /);
    const fetched = await rpc(3, 'net_http_get', { url: `${base}/rpc` });
    expect(fetched.body.result.isError).toBe(false);
    expect(fetched.body.result.structuredContent).toMatchObject({ status: 200 });
  }, 60_000);
});

describe('work registry (the panic button)', () => {
  it('abortAll stops an in-flight proc_execute infinite loop', async () => {
    const { token } = await loopback.agent();
    const started = Date.now();
    const pending = loopback
      .call(token, 'proc_execute', { language: 'javascript', code: 'while (true) {}', timeout: 30_000 })
      .then((r) => r);
    await eventually(
      async () => loopback.runtime.work.inFlight() > 0 && (loopback.runtime.work.inFlight() as number),
    );
    await new Promise((r) => setTimeout(r, 200)); // let it reach a worker and spin
    const report = loopback.runtime.work.abortAll('panic');
    expect(report.calls).toBe(1);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ outcome: 'cancelled', exitCode: 130 });
    expect(Date.now() - started).toBeLessThan(10_000);
    await eventually(async () => loopback.runtime.work.inFlight() === 0);
  });

  it('abortAll stops an in-flight net_http_get to a slow server', async () => {
    const { token } = await loopback.agent();
    const pending = loopback
      .call(token, 'net_http_get', { url: `${base}/slow`, timeout: 30_000 })
      .then((r) => r);
    await eventually(async () => openSockets.size > 0 && loopback.runtime.work.inFlight() > 0);
    const report = loopback.runtime.work.abortAll('panic');
    expect(report.calls).toBe(1);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 'UNAVAILABLE', reason: 'cancelled' });
  });

  it("abortAll with a filter stops only that account's calls", async () => {
    const operator = await loopback.account();
    const accountId = subOf(operator.token);
    const pending = loopback
      .call(operator.token, 'proc_execute', { language: 'javascript', code: 'for (;;) {}', timeout: 30_000 })
      .then((r) => r);
    await eventually(async () => loopback.runtime.work.inFlight() > 0);
    expect(loopback.runtime.work.abortAll('panic', { accountId: 'acc_someone_else' }).calls).toBe(0);
    expect(loopback.runtime.work.abortAll('panic', { workspaceId: 'ws_someone_else' }).calls).toBe(0);
    expect(loopback.runtime.work.inFlight()).toBe(1);
    const report = loopback.runtime.work.abortAll('panic', { accountId });
    expect(report).toMatchObject({ calls: 1, sandbox: 0, egress: 0 });
    expect((await pending).body.result).toMatchObject({ outcome: 'cancelled' });
  }, 60_000);
});
