import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A Streamable HTTP MCP server with sessions (so it can notify), one `McpServer` per session. */
export async function startLiveUpstream() {
  const sessions = new Map<string, { server: McpServer; transport: StreamableHTTPServerTransport }>();
  const subscribed: string[] = [];
  const build = () => {
    const server = new McpServer(
      { name: 'live-upstream', version: '1.0.0' },
      { capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } } },
    );
    server.registerTool('first', { description: 'The first tool' }, async () => ({
      content: [{ type: 'text', text: 'first' }],
    }));
    server.registerResource('note', 'memo://note', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'a note' }],
    }));
    server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
      subscribed.push(req.params.uri);
      return {};
    });
    return server;
  };
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body =
          chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        const id = req.headers['mcp-session-id'];
        let session = typeof id === 'string' ? sessions.get(id) : undefined;
        if (!session) {
          const server = build();
          const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sid) => void sessions.set(sid, { server, transport }),
          });
          await server.connect(transport);
          session = { server, transport };
        }
        await session.transport.handleRequest(req, res, body);
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  httpServer.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => httpServer.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    subscribed,
    /** A new tool on every open session: the SDK sends `tools/list_changed` for it. */
    addTool(name: string) {
      for (const { server } of sessions.values()) {
        server.registerTool(name, { description: `The ${name} tool` }, async () => ({
          content: [{ type: 'text', text: name }],
        }));
      }
    },
    async updated(uri: string) {
      for (const { server } of sessions.values()) await server.server.sendResourceUpdated({ uri });
    },
    async stop() {
      for (const { transport } of sessions.values()) await transport.close().catch(() => undefined);
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

export type LiveUpstream = Awaited<ReturnType<typeof startLiveUpstream>>;
