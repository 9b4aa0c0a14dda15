import type { ErrorRequestHandler, Request } from 'express';
import { AppError, errors, isAppError } from '../../../schemas/errors';
import { ToolCallBodySchema } from '../../../schemas/http/mcp';
import type { RouteModule } from '../../../src/http/app.types';
import { requirePrincipal } from '../../../src/http/auth';
import { idempotencyByRoute } from '../../../src/http/idempotency.middleware';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  parseIdempotencyKey,
} from '../../../src/http/idempotency/idempotency-key';
import { invokeToolOnce } from './keyed-tool-call';
import { mcpCaller, McpCallsInFlight } from './mcp-cancellation';
import { withExecutionLogs } from './mcp-execution-logs';
import { listen, LISTEN_METHOD } from './mcp-subscriptions';
import { federated } from './mcp-connector-catalog';
import {
  endSession,
  newSessionId,
  ResourceSubscriptions,
  SESSION_HEADER,
  sessionOf,
  sessionStream,
  withSubscribe,
} from './mcp-resource-subscriptions';
import { mcpTasks, type McpTaskServices } from './mcp-tasks';
import { completeFilePath, filePrompts, fileResources, type CatalogCall } from './mcp-catalog';
import { bearerChallenge } from './oauth-metadata.route';
import type { ToolProgress } from './tool-declaration';
import { invokeTool, toolRouterOf } from './tool-invoke';
import { listingFor } from './tool-listing';
import { upstreamSubscriber } from './mcp-connector-updates';
import { isUnknownToolError } from './tool-registry';
import { browserOriginGuard } from '../../../src/http/auth/dns-rebinding';
import {
  CallAnswer,
  handleJsonRpc,
  isJsonRpcBody,
  JSON_RPC_ERRORS,
  MCP_ALL_VERSIONS,
  MCP_META,
  MCP_STATELESS_VERSIONS,
  rpcError,
} from '../../../src/http/mcp/json-rpc';
import { acceptsEventStream, McpEventStream, progressNotification } from '../../../src/http/mcp/event-stream';
import { sendJson } from '../../../src/http/send-json';
import type { CachePort } from '../../../src/store/cache';
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
 * The key of one `tools/call`: the `Idempotency-Key` header or `params._meta[MCP_META.idempotencyKey]`
 * (both may be given when equal). Throws 400 for a malformed or conflicting key.
 */
function callKey(header: string | undefined, meta: Record<string, unknown> | undefined): string | undefined {
  const raw = meta?.[MCP_META.idempotencyKey];
  if (raw === undefined) return header;
  const key = parseIdempotencyKey(raw, `params._meta["${MCP_META.idempotencyKey}"]`);
  if (header !== undefined && header !== key) {
    throw errors.validation(`The ${IDEMPOTENCY_KEY_HEADER} header and params._meta name different keys`);
  }
  return key;
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
export const mcpRoute: RouteModule<McpTaskServices & { cache?: CachePort }> = (router, deps) => {
  const inFlight = new McpCallsInFlight(deps.system);
  // The 2025 eras' resource subscriptions live in the shared cache (mcp-resource-subscriptions.ts).
  const subs = deps.services?.cache ? new ResourceSubscriptions(deps.services.cache) : undefined;
  // Keys are read here, per tool call, in both dialects (keyed-tool-call.ts), not by the front door.
  router.post(
    PATH,
    browserOriginGuard(deps.config),
    idempotencyByRoute,
    deps.requireAuth,
    async (req, res) => {
      const principal = requirePrincipal(res);
      const rawKey = req.headers['idempotency-key'];

      if (isJsonRpcBody(req.body)) {
        const version = req.headers['mcp-protocol-version'];
        if (typeof version === 'string' && !MCP_ALL_VERSIONS.includes(version)) {
          res.status(400).json(
            rpcError(
              null,
              JSON_RPC_ERRORS.invalidRequest,
              `Unsupported MCP-Protocol-Version: ${version.slice(0, 40)}`,
              {
                supported: MCP_ALL_VERSIONS,
              },
            ),
          );
          return;
        }
        // `Mcp-Method` (2026-07-28) lets a proxy route on the method without the body: it must
        // name the body's method, or the two would be routed and run differently.
        const routed = req.headers['mcp-method'];
        const bodyMethod = Array.isArray(req.body) ? undefined : (req.body as { method?: unknown }).method;
        if (typeof routed === 'string' && !Array.isArray(req.body) && routed !== bodyMethod) {
          res
            .status(400)
            .json(
              rpcError(
                null,
                JSON_RPC_ERRORS.invalidRequest,
                `The Mcp-Method header (${routed.slice(0, 100)}) does not name the body's method`,
              ),
            );
          return;
        }
        // The 2026 subscription form: a stream that stays open (mcp-subscriptions.ts).
        const single = Array.isArray(req.body) ? undefined : (req.body as Record<string, unknown>);
        if (single?.method === LISTEN_METHOD && 'id' in single) {
          const listing = () =>
            listingFor(deps, principal, toolRouterOf(deps).registry).then((l) => l.mcpTools);
          const upstream = upstreamSubscriber(
            toolRouterOf(deps).resolvers.connectorCatalog,
            principal,
            listing,
          );
          await listen(deps.system, principal, single, req, res, mcpTasks(deps, principal), upstream);
          return;
        }
        let headerKey: string | undefined;
        let session: string;
        try {
          session = sessionOf(req);
          headerKey = rawKey === undefined ? undefined : parseIdempotencyKey(rawKey);
          if (headerKey !== undefined && Array.isArray(req.body)) {
            throw errors.validation(
              `An ${IDEMPOTENCY_KEY_HEADER} header names one call: in a batch, give each tools/call its key in params._meta["${MCP_META.idempotencyKey}"]`,
            );
          }
        } catch (err) {
          res.status(400).json(rpcError(null, JSON_RPC_ERRORS.invalidRequest, (err as Error).message));
          return;
        }
        const registry = toolRouterOf(deps).registry;
        // The caller's connector tools are looked up only for a `tools/list`, once per request.
        let listing: Promise<readonly unknown[]> | undefined;
        let replayed = false;
        // A client that goes away before its answer cancels the calls of its request.
        const gone = new AbortController();
        const onClose = () => {
          if (!res.writableFinished) gone.abort();
        };
        res.once('close', onClose);
        const caller = mcpCaller(principal);
        // Progress for a `progressToken` needs an event stream: only for a client that takes one,
        // and for a single message (a batch's answers are one JSON array).
        const stream =
          acceptsEventStream(req.headers.accept) && !Array.isArray(req.body)
            ? new McpEventStream(res)
            : undefined;
        // Resources, prompts and completions run the caller's own platform tools (mcp-catalog.ts).
        const asCaller: CatalogCall = (tool, input) => invokeTool(deps, principal, { tool, input });
        const files = withExecutionLogs(fileResources(asCaller), deps.services?.executions, principal);
        const tools = () => (listing ??= listingFor(deps, principal, registry).then((l) => l.mcpTools));
        const stateful = subs && !(typeof version === 'string' && MCP_STATELESS_VERSIONS.includes(version));
        // The caller's connectors' resources, prompts and completions beside its own (mcp-connector-catalog.ts).
        const catalog = federated(
          {
            resources: stateful ? withSubscribe(files, subs, principal, session) : files,
            prompts: filePrompts(asCaller),
            complete: completeFilePath(asCaller),
          },
          toolRouterOf(deps).resolvers.connectorCatalog,
          principal,
          tools,
        );
        const answer = await handleJsonRpc(req.body, {
          serverInfo: SERVER_INFO,
          ...(typeof version === 'string' ? { protocolVersion: version } : {}),
          tools,
          call: async (name, args, meta, requestId) => {
            const key = callKey(headerKey, meta);
            const flight = inFlight.begin(caller, requestId, gone.signal);
            const token = meta?.progressToken;
            const progress =
              stream && (typeof token === 'string' || typeof token === 'number') ? token : undefined;
            if (progress !== undefined)
              stream!.send(progressNotification(progress, 0, 1, `${name}: started`));
            // What the tool reports in between (bytes received, …); MCP wants `progress` to grow.
            let last = 0;
            const onProgress =
              progress === undefined
                ? undefined
                : (u: ToolProgress) => {
                    if (!(u.progress > last)) return;
                    last = u.progress;
                    stream!.send(
                      progressNotification(progress, u.progress, u.total, `${name}: ${u.message ?? ''}`),
                    );
                  };
            let once;
            try {
              once = await invokeToolOnce(deps, principal, key, {
                tool: name,
                input: args,
                signal: flight.signal,
                ...(onProgress ? { onProgress } : {}),
              });
            } finally {
              flight.end();
              if (progress !== undefined && last < 1)
                stream!.send(progressNotification(progress, 1, 1, `${name}: finished`));
            }
            if (!once.replayed) return once.result;
            replayed = true;
            return new CallAnswer(once.result, { [MCP_META.replayed]: true });
          },
          cancelled: (requestId) => inFlight.cancel(caller, requestId),
          isUnknownTool: isUnknownToolError,
          ...catalog,
          tasks: mcpTasks(deps, principal),
        });
        res.off('close', onClose);
        // The client is gone: nobody reads an answer (the cancelled call's record says why).
        if (gone.signal.aborted) return;
        if (stream?.isOpen) {
          // Headers went out with the first progress: the response ends the stream.
          stream.end(answer.body ?? {});
          return;
        }
        if (replayed && !Array.isArray(req.body)) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
        // A session only names a client's subscriptions: nothing else is kept or required.
        if (subs && single?.method === 'initialize' && answer.status === 200)
          res.setHeader(SESSION_HEADER, session || newSessionId());
        if (answer.body === undefined) res.status(answer.status).end();
        else sendJson(res, answer.status, answer.body);
        return;
      }

      // A client that disconnects before its answer cancels the call (the same abort as MCP's).
      const gone = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) gone.abort();
      };
      res.once('close', onClose);
      try {
        const key = rawKey === undefined ? undefined : parseIdempotencyKey(rawKey);
        const body = parseBody(ToolCallBodySchema, req);
        const markReplayed = () => res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
        const { result, replayed } = await invokeToolOnce(
          deps,
          principal,
          key,
          {
            tool: body.tool,
            input: body.input ?? body.arguments ?? {},
            ...(body.server !== undefined ? { server: body.server } : {}),
            signal: gone.signal,
          },
          markReplayed,
        );
        if (gone.signal.aborted) return; // nobody reads the answer
        if (replayed) markReplayed();
        sendJson(res, 200, { success: true, result });
      } catch (err) {
        if (gone.signal.aborted) return;
        throw withSuccessFalse(err);
      } finally {
        res.off('close', onClose);
      }
    },
  );

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
  if (subs) {
    const guard = browserOriginGuard(deps.config);
    router.get(PATH, guard, deps.requireAuth, sessionStream(deps.system, subs, requirePrincipal));
    router.delete(PATH, guard, deps.requireAuth, endSession(subs, requirePrincipal));
  }
  // A 401 tells OAuth-aware MCP clients where the resource metadata is (oauth-metadata.route.ts).
  router.use(PATH, bearerChallenge(deps.config.PUBLIC_BASE_URL));
};
