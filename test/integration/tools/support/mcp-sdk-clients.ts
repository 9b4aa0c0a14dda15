import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';

/**
 * The official SDK clients as an MCP host would set them up against `/mcp` (the tests of
 * mcp-sdk-*.test.ts and mcp-sdk-clients.amqp.test.ts): the SDK v2 client (`@modelcontextprotocol/
 * client`) pinned to 2026-07-28 or negotiating, and the SDK v1 client (2025-11-25), each with the
 * bearer header of an account. Also what those tests need around them: a slow upstream that makes
 * `net_http_get` report progress, the account and its connector, and the route records.
 */

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Which client and how it picks its protocol revision. */
export type ClientKind = 'v2-pinned' | 'v2-auto' | 'v1';

/** One connected client of any kind, with the JSON-RPC methods its transport POSTed. */
export interface Connected {
  kind: ClientKind;
  /** The client (v2 or v1: the common calls have the same names and shapes). */
  client: ClientV2 | ClientV1;
  /** Methods of the messages POSTed so far, in order (to see what a cache saved). */
  posted: string[];
  close(): Promise<void>;
}

const clientInfo = (kind: ClientKind) => ({ name: `sdk-${kind}-test`, version: '1.0.0' });

/** A fetch that records the method of each JSON-RPC message it POSTs. */
function recordingFetch(posted: string[]): typeof fetch {
  return async (input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const body = JSON.parse(init.body) as { method?: string } | Array<{ method?: string }>;
      for (const m of Array.isArray(body) ? body : [body]) if (m.method) posted.push(m.method);
    }
    return fetch(input, init);
  };
}

/**
 * Connects a client of `kind` to `<url>/mcp` with `Authorization: Bearer <token>`. `tasks`: the v2
 * client declares the Tasks extension (the server then runs long calls as tasks).
 */
export async function connect(
  kind: ClientKind,
  url: string,
  token: string,
  options: { tasks?: boolean } = {},
): Promise<Connected> {
  const posted: string[] = [];
  const headers = { Authorization: `Bearer ${token}` };
  if (kind === 'v1') {
    const transport = new TransportV1(new URL(`${url}/mcp`), {
      requestInit: { headers },
      fetch: recordingFetch(posted),
    });
    const client = new ClientV1(clientInfo(kind));
    await client.connect(transport);
    return { kind, client, posted, close: () => client.close() };
  }
  const transport = new TransportV2(new URL(`${url}/mcp`), {
    requestInit: { headers },
    fetch: recordingFetch(posted),
  });
  const client = new ClientV2(clientInfo(kind), {
    versionNegotiation: { mode: kind === 'v2-pinned' ? { pin: '2026-07-28' } : 'auto' },
    ...(options.tasks ? { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } } : {}),
  });
  await client.connect(transport);
  return { kind, client, posted, close: () => client.close() };
}

/**
 * Creates a task in the 2026 era the way the Tasks extension's requester does it (the
 * `@modelcontextprotocol/ext-tasks` package frames its own request: the SDK v2 client 2.4.0
 * refuses a `resultType: 'task'` answer): a raw `tools/call` with the per-request `_meta` envelope
 * declaring the extension. Answers the task id.
 */
export async function createTask2026(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ taskId: string; status: string }> {
  const res = await request(url)
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('MCP-Protocol-Version', '2026-07-28')
    .set('Mcp-Method', 'tools/call')
    .send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': clientInfo('v2-pinned'),
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
        },
      },
    });
  if (res.body.result?.resultType !== 'task') throw new Error(`no task: ${res.status} ${res.text}`);
  return res.body.result as { taskId: string; status: string };
}

/** An HTTP server whose `/slow` sends 4,000 bytes in four parts 250 ms apart (announced length). */
export async function startSlowUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4000' });
    let sent = 0;
    const tick = () => {
      res.write('x'.repeat(1000));
      if (++sent === 4) res.end();
      else setTimeout(tick, 250);
    };
    tick();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Signs up an enterprise account (connectors allowed) at `url`: its bearer token and email. */
export async function signupAccount(url: string): Promise<{ token: string; email: string }> {
  const email = `sdk-${randomBytes(6).toString('hex')}@example.com`;
  const res = await request(url).post('/api/signup').send({
    email,
    password: 'correct horse battery',
    accountType: 'enterprise',
    selectedPlan: 'enterprise_plus',
  });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${res.text}`);
  return { token: res.body.credentials.bearerToken as string, email };
}

/** Registers an HTTP MCP server as the account's connector `slug`. */
export async function addConnector(url: string, token: string, slug: string, server: string): Promise<void> {
  const res = await request(url)
    .post('/api/connectors')
    .set('Authorization', `Bearer ${token}`)
    .send({ slug, transport: 'http', url: server });
  if (res.status !== 201) throw new Error(`connector: ${res.status} ${res.text}`);
}

/** Writes a file into the caller's file space through the spec's dialect (`fs_write`). */
export async function writeFile(url: string, token: string, path: string, content: string): Promise<void> {
  const res = await request(url)
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .send({ tool: 'fs_write', input: { path, content } });
  if (res.status !== 200) throw new Error(`fs_write: ${res.status} ${res.text}`);
}

/** The caller's route records, newest first (`GET /api/ffp/routes`). */
export async function routes(url: string, token: string): Promise<Array<Record<string, unknown>>> {
  const res = await request(url).get('/api/ffp/routes').set('Authorization', `Bearer ${token}`);
  if (res.status !== 200) throw new Error(`routes: ${res.status} ${res.text}`);
  return res.body.routes as Array<Record<string, unknown>>;
}
