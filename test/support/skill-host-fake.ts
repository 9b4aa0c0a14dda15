import { createHmac } from 'node:crypto';
import { AppError } from '../../schemas/errors';
import type { HostCalls } from '../../src/sandbox';

/** The value of the secrets in the catalog's examples (docs/skills.md, "Previews"). */
export const EXAMPLE_SECRETS: Readonly<Record<string, string>> = Object.freeze({
  WEBHOOK_SIGNING_SECRET: 'whsec_example',
});

/** The answer recorded for the network examples, by URL. */
export const EXAMPLE_HTTP: Readonly<Record<string, { status: number; body: unknown }>> = Object.freeze({
  'https://api.example.com/v1/status': {
    status: 200,
    body: {
      service: 'orders',
      status: 'ok',
      version: '4.2.1',
      regions: [{ name: 'eu-west', latencyMs: 42 }],
    },
  },
});

/** What the recorded connector of the examples answers (`mcp.tickets.search`). */
export const EXAMPLE_CONNECTOR = {
  content: [{ type: 'text', text: '2 tickets' }],
  structuredContent: {
    tickets: [
      { id: 'T-1', title: 'Login fails', priority: 'high' },
      { id: 'T-2', title: 'Typo', priority: 'low' },
    ],
  },
  isError: false,
};

/**
 * Host calls that answer like the platform's tools, from memory: `mem_*` on a map, `net_http_get`
 * from EXAMPLE_HTTP, `secret.hmac` with EXAMPLE_SECRETS, `mcp.tickets.search` with EXAMPLE_CONNECTOR.
 * For running the catalog's examples without a runtime; the real path is tested end to end.
 */
export function exampleHost(calls: Array<[string, unknown]> = []): HostCalls {
  const memory = new Map<string, unknown>();
  return {
    call: async (name, input) => {
      calls.push([name, input]);
      const i = input as Record<string, unknown>;
      switch (name) {
        case 'mem_set':
          memory.set(String(i.key), i.value);
          return true;
        case 'mem_get':
          return memory.has(String(i.key))
            ? { value: memory.get(String(i.key)), found: true }
            : { value: null, found: false };
        case 'mem_list': {
          const keys = [...memory.keys()].filter((k) => k.startsWith(String(i.prefix ?? ''))).sort();
          return { keys, truncated: false };
        }
        case 'mem_delete':
          return { deleted: memory.delete(String(i.key)) };
        case 'net_http_get': {
          const recorded = EXAMPLE_HTTP[String(i.url)];
          if (!recorded) throw new AppError('NOT_FOUND', `No recorded answer for ${String(i.url)}`);
          const body = JSON.stringify(recorded.body);
          return {
            status: recorded.status,
            headers: { 'content-type': 'application/json' },
            body,
            bodyEncoding: 'utf8',
            bytes: Buffer.byteLength(body),
            truncated: false,
            url: String(i.url),
            redirects: 0,
          };
        }
        case 'secret.hmac': {
          const value = EXAMPLE_SECRETS[String(i.secret)];
          if (!value) throw new AppError('PERMISSION_DENIED', `No secret ${String(i.secret)}`);
          return {
            digest: createHmac(String(i.algorithm ?? 'sha256'), value)
              .update(String(i.message))
              .digest('hex'),
          };
        }
        case 'mcp.tickets.search':
          return EXAMPLE_CONNECTOR;
        default:
          throw new AppError('NOT_FOUND', `Unknown tool: ${name}`);
      }
    },
  };
}
