import { z } from 'zod';
import {
  FfpRoutesQuerySchema,
  FfpRoutesResponseSchema,
  JsonRpcRequestSchema,
  JsonRpcResponseSchema,
  ToolCallBodySchema,
  ToolCallResponseSchema,
  ToolEntrySchema,
} from '../../../schemas/http/mcp';
import { defineContracts } from '../../../src/http/openapi/contract';

const ProtectedResourceSchema = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  resource_name: z.string(),
});

/** mcp.route.ts, tools.route.ts, oauth-metadata.route.ts, route-records.route.ts. */
export const toolRouterContracts = defineContracts('Tool router (MCP)', [
  {
    method: 'post',
    path: '/mcp',
    summary: 'The tool router: MCP (JSON-RPC 2.0, one message or a batch) or `{tool, input}`',
    description:
      'Two dialects on one path, told apart by the body. With `jsonrpc: "2.0"` it is MCP over Streamable ' +
      'HTTP (stateless, JSON answers): `initialize`, `tools/list`, `tools/call`, `resources/*`, `prompts/*`, ' +
      '`ping`…; JSON-RPC errors come inside a 200 answer, a notification gets 202. Any other body is the ' +
      "service's own dialect `{tool, input}` answering `{success: true, result}` or an error body. " +
      'An `Idempotency-Key` header (or `params._meta` key) makes a tools/call run once.',
    auth: 'sb',
    body: z.union([JsonRpcRequestSchema, z.array(JsonRpcRequestSchema), ToolCallBodySchema]),
    bodyExample: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    responses: {
      200: {
        description: 'A JSON-RPC answer (or a batch of them), or `{success, result}` for `{tool, input}`',
        schema: z.union([JsonRpcResponseSchema, z.array(JsonRpcResponseSchema), ToolCallResponseSchema]),
        example: {
          jsonrpc: '2.0',
          id: 1,
          result: { tools: [{ name: 'mem_set', inputSchema: { type: 'object' } }] },
        },
      },
      202: { description: 'A notification or a batch of notifications: no body' },
    },
    errors: [404, 409, 429, 504],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/mcp',
    summary: "An MCP session's event stream: `notifications/resources/updated` for its subscriptions",
    description:
      "For the 2025 eras' `resources/subscribe`: with `Accept: text/event-stream` (and the `Mcp-Session-Id` " +
      '`initialize` gave, if any), a stream that stays open and carries one `notifications/resources/updated ' +
      '{uri}` each time a subscribed file of the caller is written, renamed or deleted, on any node. ' +
      'Without that Accept: 405.',
    auth: 'sb',
    responses: {
      200: {
        description: 'An event stream: `event: message`, `data:` one JSON-RPC notification',
        contentType: 'text/event-stream',
        schema: z.string(),
      },
    },
    errors: [405],
  },
  {
    method: 'delete',
    path: '/mcp',
    summary: 'Ends an MCP session: the subscriptions of its `Mcp-Session-Id` are dropped',
    auth: 'sb',
    responses: { 204: { description: 'Done (also when there was nothing to drop)' } },
  },
  {
    method: 'get',
    path: '/tools',
    summary: 'The tool registry (with the caller’s connector tools when signed in)',
    auth: 'optional',
    responses: { 200: z.object({ tools: z.array(ToolEntrySchema) }) },
  },
  {
    method: 'get',
    path: '/.well-known/oauth-protected-resource/mcp',
    summary: 'OAuth protected-resource metadata of /mcp (RFC 9728)',
    auth: 'none',
    responses: { 200: ProtectedResourceSchema },
  },
  {
    method: 'get',
    path: '/.well-known/oauth-protected-resource',
    summary: 'OAuth protected-resource metadata (root form, for older MCP clients)',
    auth: 'none',
    responses: { 200: ProtectedResourceSchema },
  },
  {
    method: 'get',
    path: '/api/ffp/routes',
    summary: 'Recent tool-call route records and per-primitive counts',
    auth: 'sb',
    query: FfpRoutesQuerySchema,
    responses: { 200: FfpRoutesResponseSchema },
  },
]);
