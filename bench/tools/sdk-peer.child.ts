import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { bearerSubject, memCall, referenceSetup } from './bare-mem';

/**
 * The peer of `bench:mcp` (BENCH_MCP_CASE=peer, peer-case.ts): a bare server made with the official
 * MCP SDK v2 (`@modelcontextprotocol/server`, `createMcpHandler`: a fresh `McpServer` per request,
 * stateless, JSON answers) on `POST /mcp` over Streamable HTTP, on plain `node:http`. Its tools
 * `mem_set` and `mem_get` make the Redis call of the service's tools of the same names (bare-mem.ts:
 * one SET with the 7-day TTL, one GET), with the same Redis client option (auto-pipelining), after
 * the same bearer check as the bare reference (the service's HS256 check, no revocation). What it
 * costs beyond that is the SDK's: classification, per-request server, schema validation, JSON-RPC.
 * Keys: `BENCH_REDIS_PREFIX` + agent + key. Env: REDIS_URL, JWT_SECRET. IPC like service.child.
 */

const MemSetInput = z.object({ key: z.string().min(1).max(256), value: z.unknown() });
const MemGetInput = z.object({ key: z.string().min(1).max(256) });

async function main(): Promise<void> {
  const { prefix, key, sealer, redis } = await referenceSetup('bench:mcp:peer:');

  /** One tool call: the shared Redis call, answered as a tool result (the service's shape). */
  const call = async (tool: string, sub: string, input: unknown) => {
    const answer = await memCall(redis, prefix, sub, { tool, input });
    const result = (answer.body as { result?: unknown }).result ?? answer.body;
    const structured = typeof result === 'object' && result !== null ? { structuredContent: result } : {};
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(result) }],
      ...structured,
      isError: answer.status !== 200,
    };
  };
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const server = new McpServer({ name: 'bench-sdk-peer', version: '1.0.0' });
      const sub = authInfo?.clientId ?? '';
      server.registerTool('mem_set', { inputSchema: MemSetInput }, (input) => call('mem_set', sub, input));
      server.registerTool('mem_get', { inputSchema: MemGetInput }, (input) => call('mem_get', sub, input));
      return server;
    },
    { responseMode: 'json' },
  );

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const sub = bearerSubject(req.headers.authorization, key, sealer);
        if (sub === undefined) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
          return;
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
          method: req.method,
          headers,
          ...(body && req.method === 'POST' ? { body } : {}),
        });
        const authInfo = { token: (req.headers.authorization ?? '').slice(7), clientId: sub, scopes: [] };
        const response = await handler.fetch(request, { authInfo });
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => (out[name] = value));
        res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  process.send?.({ event: 'ready', url: `http://127.0.0.1:${port}` });

  const stop = () => {
    server.closeAllConnections();
    server.close();
    void handler.close?.();
    void redis.quit().finally(() => process.exit(0));
  };
  process.on('message', (m: { cmd?: string }) => {
    if (m?.cmd === 'stop') stop();
  });
  process.on('disconnect', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench SDK v2 peer: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
