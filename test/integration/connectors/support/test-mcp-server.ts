import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { addTestCatalog } from './test-mcp-catalog';

/** A Streamable HTTP MCP server on 127.0.0.1 for the connector tests, built with the SDK. */
export interface TestMcpServer {
  readonly url: string;
  readonly port: number;
  /** Headers of every request received, lower-case names. */
  readonly requests: Array<Record<string, string | string[] | undefined>>;
  /** Tags of the calls of the `slow` tool received, and of those the client cancelled. */
  readonly started: string[];
  readonly cancelled: string[];
  /** Stops listening and drops every connection (the server is "down"). */
  stop(): Promise<void>;
  /** Listens again on the same port (new sessions only). */
  start(): Promise<void>;
}

function buildServer(started: string[], cancelled: string[]): McpServer {
  const server = new McpServer({ name: 'test-mcp', version: '1.2.3' });
  addTestCatalog(server);
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Echoes the message back',
      inputSchema: { message: z.string() },
      annotations: {
        title: 'Echo a message',
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ message }) => ({ content: [{ type: 'text', text: `echo: ${message}` }] }),
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool(
    'fail',
    { description: 'Always fails (a tool error, not a protocol error)' },
    async () => ({
      content: [{ type: 'text', text: 'it failed' }],
      isError: true,
    }),
  );
  server.registerTool(
    'slow',
    { description: 'Waits ms milliseconds', inputSchema: { ms: z.number(), tag: z.string() } },
    async ({ ms, tag }, extra) =>
      new Promise((resolve) => {
        started.push(tag);
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'done' }] }), ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          cancelled.push(tag);
        });
      }),
  );
  return server;
}

/**
 * `options.authorization`: the `Authorization` header every request must carry, else HTTP 401 (as
 * a real server checking its credential would): a connector whose header was not opened right fails.
 */
export async function startTestMcpServer(options: { authorization?: string } = {}): Promise<TestMcpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  const requests: TestMcpServer['requests'] = [];
  const started: string[] = [];
  const cancelled: string[] = [];

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests.push({ ...req.headers });
    if (options.authorization !== undefined && req.headers.authorization !== options.authorization) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }));
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      await existing.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST' || sessionId !== undefined) {
      res.writeHead(sessionId === undefined ? 405 : 404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No such session' }, id: null }),
      );
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer(started, cancelled).connect(transport);
    await transport.handleRequest(req, res);
  };

  let server = http.createServer((req, res) => void handler(req, res));
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    started,
    cancelled,
    async stop() {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      sessions.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      server = http.createServer((req, res) => void handler(req, res));
      await listen(port);
    },
  };
}
