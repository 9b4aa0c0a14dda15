import type { ToolRouterRouteServices } from './tool-invoke';
import type { ErrorRequestHandler, Request } from 'express';
import { AppError, isAppError } from '../../../schemas/errors';
import { ToolCallBodySchema } from '../../../schemas/http/mcp';
import type { RouteModule } from '../../../src/http/app.types';
import { requirePrincipal } from '../../../src/http/auth';
import { invokeTool, toolRouterOf } from './tool-invoke';
import { listingFor } from './tool-listing';
import { isUnknownToolError } from './tool-registry';
import { browserOriginGuard } from '../../../src/http/auth/dns-rebinding';
import {
  handleJsonRpc,
  isJsonRpcBody,
  JSON_RPC_ERRORS,
  MCP_PROTOCOL_VERSIONS,
  rpcError,
} from '../../../src/http/mcp/json-rpc';
import { sendJson } from '../../../src/http/send-json';
import { parseBody } from '../../../src/http/validation';
import { SERVICE_VERSION } from '../../../src/version';

const PATH = '/mcp';
const SERVER_INFO = Object.freeze({ name: 'agent-runtime-service', version: SERVICE_VERSION });

/** An MCP client (Streamable HTTP) announces itself with these headers. */
function looksLikeMcpClient(req: Request): boolean {
  return (
    req.headers['mcp-protocol-version'] !== undefined ||
    (req.headers.accept ?? '').includes('text/event-stream')
  );
}

/** The spec's dialect answers failures `{success: false, error, code, ...}`. */
function withSuccessFalse(err: unknown): unknown {
  if (!isAppError(err) || err.code === 'INTERNAL_ERROR') return err;
  return new AppError(err.code, err.message, { ...err.details, success: false }, { cause: err });
}

/**
 * `POST /mcp` (SB): the universal tool router, two dialects on one path, told apart by the body
 * (docs/tool-router.md):
 *
 * - `jsonrpc: "2.0"` (or a batch array): MCP over Streamable HTTP, stateless, JSON answers.
 * - anything else: the spec's `{tool, input | arguments, server?}` → `{success: true, result}`.
 *
 * A browser page of a foreign origin is refused first (403, src/http/auth/dns-rebinding.ts), then
 * authentication for both (401 as an HTTP status, which MCP clients surface). `GET` and
 * `DELETE /mcp` answer 405 (no server-initiated stream, no session to end) through the fallback.
 */
export const mcpRoute: RouteModule<ToolRouterRouteServices> = (router, deps) => {
  router.post(PATH, browserOriginGuard(deps.config), deps.requireAuth, async (req, res) => {
    const principal = requirePrincipal(res);

    if (isJsonRpcBody(req.body)) {
      const version = req.headers['mcp-protocol-version'];
      if (typeof version === 'string' && !MCP_PROTOCOL_VERSIONS.includes(version)) {
        res.status(400).json(
          rpcError(
            null,
            JSON_RPC_ERRORS.invalidRequest,
            `Unsupported MCP-Protocol-Version: ${version.slice(0, 40)}`,
            {
              supported: MCP_PROTOCOL_VERSIONS,
            },
          ),
        );
        return;
      }
      const registry = toolRouterOf(deps).registry;
      // The caller's connector tools are looked up only for a `tools/list`, once per request.
      let listing: Promise<readonly unknown[]> | undefined;
      const answer = await handleJsonRpc(req.body, {
        serverInfo: SERVER_INFO,
        tools: () => (listing ??= listingFor(deps, principal, registry).then((l) => l.mcpTools)),
        call: (name, args) => invokeTool(deps, principal, { tool: name, input: args }),
        isUnknownTool: isUnknownToolError,
      });
      if (answer.body === undefined) res.status(answer.status).end();
      else sendJson(res, answer.status, answer.body);
      return;
    }

    try {
      const body = parseBody(ToolCallBodySchema, req);
      const result = await invokeTool(deps, principal, {
        tool: body.tool,
        input: body.input ?? body.arguments ?? {},
        ...(body.server !== undefined ? { server: body.server } : {}),
      });
      sendJson(res, 200, { success: true, result });
    } catch (err) {
      throw withSuccessFalse(err);
    }
  });

  // A body that is not even JSON: an MCP client gets a JSON-RPC parse error, others the usual 400.
  const parseErrorForMcp: ErrorRequestHandler = (err, req, res, next) => {
    const parseFailed = (err as { type?: unknown } | null)?.type === 'entity.parse.failed';
    if (req.path !== '/' || req.method !== 'POST' || !parseFailed || !looksLikeMcpClient(req)) {
      next(err);
      return;
    }
    res.status(400).json(rpcError(null, JSON_RPC_ERRORS.parse, 'Parse error: the body is not valid JSON'));
  };
  router.use(PATH, parseErrorForMcp);
};
