import type { Principal } from '../../schemas/auth';
import type { ConnectorDocument, ConnectorDocumentInput } from '../../schemas/documents/connector';
import { errors, isAppError } from '../../schemas/errors';
import {
  MAX_CONNECTORS_PER_ACCOUNT,
  type ConnectorView,
  type CreateConnectorBody,
} from '../../schemas/http/connectors';
import {
  ConnectorsCallMessageSchema,
  ConnectorsCreateMessageSchema,
  ConnectorsDeleteMessageSchema,
  ConnectorsDescribeMessageSchema,
  ConnectorsForwardMessageSchema,
  ConnectorsGetMessageSchema,
  ConnectorsListMessageSchema,
  ConnectorsOutcomeMessageSchema,
  ConnectorsRefreshMessageSchema,
  ConnectorsToolsMessageSchema,
  ConnectorsUpdateMessageSchema,
  type ConnectorCallRelated,
  type ConnectorCallResult,
} from '../../schemas/messages/connectors';
import { defineActor, type ActorContext } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import type { PlanId } from '../identity/plans';
import { operatorOf } from '../identity/principal';
import { AuditBuffer } from './connector-audit';
import { forwardOnPool } from './connector-forward';
import { assertInScope, checkRegistration } from './connector-policy';
import type { ConnectorPool } from './connector-pool';
import { isSealingError, markUnreadable, storeResealed } from './connector-rekey';
import type { ConnectorSealer } from './connector-secrets';
import {
  connectorView,
  discoveredUpdate,
  failedDiscoveryUpdate,
  newConnectorDocument,
  newConnectorId,
  openConnector,
  routerToolEntries,
} from './connectors.collection';
import { isConnectionFailure, type ConnectorSpec } from './mcp-session';

/** What the actor needs, wired by `actors/connectors/connectors.ts`. */
export interface ConnectorsActorOptions {
  repo: Repository<ConnectorDocument, ConnectorDocumentInput>;
  pool: ConnectorPool;
  sealer: ConnectorSealer;
  /** `config.MCP_STDIO_ALLOWLIST`. */
  stdioAllowlist: readonly (readonly string[])[];
  /** The account's plan (stdio connectors need `manage_manifest`). */
  planOf: (accountId: string) => Promise<PlanId | undefined>;
  /** Tells every node to close its sessions to a connector (removed or disabled). */
  announceClosed: (connectorId: string) => Promise<void>;
  /** Least time between two writes of `lastAuditOutcome` per connector, ms. Default 5000. */
  auditFlushMs?: number;
  /** How long a connector read for a call is reused, ms. Default 2000. */
  docTtlMs?: number;
}

interface State {
  docs: Map<string, { doc: ConnectorDocument; at: number }>;
  audit: AuditBuffer;
}

/** Marker in `details.reason` of a 404 for a tool or connector that does not exist (the router's). */
const UNKNOWN_TOOL = 'unknown_tool';
const notFound = (slug: string) => errors.notFound(`Connector not found: ${slug}`, { reason: UNKNOWN_TOOL });

/** Only the account itself (session, account or named token) manages connectors; agents use them. */
function manager(auth: unknown, accountId: string): Principal {
  const principal = operatorOf(auth, accountId);
  if (principal.subjectType !== 'account') {
    throw errors.forbidden(
      'Connectors are managed by the account (session or account token), not by an agent key',
    );
  }
  return principal;
}

/**
 * One account's MCP connectors: `connectors:<accountId>` (docs/connectors.md). The documents are
 * the truth (read per message, a call's read reused for `docTtlMs`); discovery and calls run on the
 * process's `ConnectorPool` outside the turn (`ctx.defer`), and their outcomes come back to the
 * actor as `connectors.outcome` messages, written by the `AuditBuffer`.
 */
export function connectorsActor(options: ConnectorsActorOptions) {
  const { repo, pool, sealer } = options;
  const docTtlMs = options.docTtlMs ?? 2000;

  const view = (state: State, doc: ConnectorDocument): ConnectorView =>
    connectorView(doc, sealer, state.audit.pending(doc._id));

  async function find(
    state: State,
    accountId: string,
    slug: string,
    fresh = true,
  ): Promise<ConnectorDocument> {
    const cached = state.docs.get(slug);
    if (!fresh && cached && Date.now() - cached.at < docTtlMs) return cached.doc;
    const doc = await repo.findOne({ accountId, slug });
    if (!doc) {
      state.docs.delete(slug);
      throw notFound(slug);
    }
    state.docs.set(slug, { doc, at: Date.now() });
    return doc;
  }

  async function assertMayCreate(accountId: string, body: CreateConnectorBody): Promise<void> {
    const plan = body.transport === 'stdio' ? await options.planOf(accountId) : undefined;
    checkRegistration(body, { plan, stdioAllowlist: options.stdioAllowlist });
    if (await repo.count({ accountId, slug: body.slug })) {
      throw errors.conflict(`A connector with slug "${body.slug}" already exists`, { field: 'slug' });
    }
    if ((await repo.count({ accountId })) >= MAX_CONNECTORS_PER_ACCOUNT) {
      throw errors.conflict(`An account holds at most ${MAX_CONNECTORS_PER_ACCOUNT} connectors`);
    }
  }

  /**
   * The connector's values opened for a session (docs/connectors.md, "Master key rotation"): the
   * first use after a rotation stores them re-sealed under the current key (a failed write only
   * logs: the next use tries again). Throws the sealer's error when a value does not open.
   */
  async function openForUse(ctx: ActorContext<State>, doc: ConnectorDocument): Promise<ConnectorSpec> {
    const opened = openConnector(doc, sealer);
    if (opened.resealed) {
      await storeResealed(repo, doc, opened.resealed).catch((err: unknown) =>
        ctx.logger.warn({ err, connectorId: doc._id }, 'connector values not re-sealed'),
      );
      ctx.state.docs.delete(doc.slug);
    }
    return opened.spec;
  }

  /** Runs `call` on the pool and tells the actor how it went. */
  async function runCall<T extends object = ConnectorCallResult>(
    ctx: ActorContext<State>,
    doc: ConnectorDocument,
    spec: ConnectorSpec,
    body: {
      tool: string;
      arguments?: Record<string, unknown>;
      timeoutMs?: number;
      related?: ConnectorCallRelated;
    },
    // A tool call, or a federated request (connector-forward.ts) under the same limits and audit.
    work: (signal: AbortSignal, timeoutMs: number) => Promise<T> = (signal, timeoutMs) =>
      pool.call(spec, body.tool, body.arguments ?? {}, { signal, timeoutMs }) as Promise<T>,
  ): Promise<T> {
    const at = Date.now();
    // Never past the request's deadline: the caller would be gone.
    const timeoutMs = Math.max(1, Math.min(pool.callTimeout(body.timeoutMs), ctx.deadline - at - 50));
    const tell = (outcome: { success: boolean; health?: 'active' | 'error'; error?: string }) =>
      ctx.self
        .tell('connectors.outcome', {
          connectorId: doc._id,
          tool: body.tool,
          at,
          related: body.related,
          ...outcome,
        })
        .catch((err: unknown) => ctx.logger.warn({ err }, 'connector outcome not recorded'));
    try {
      const result = await work(ctx.signal, timeoutMs);
      void tell({ success: !('isError' in result && result.isError), health: 'active' });
      return result;
    } catch (err) {
      const failure = isConnectionFailure(err);
      void tell({
        success: false,
        ...(failure
          ? { health: 'error' as const, error: isAppError(err) ? err.message.slice(0, 500) : undefined }
          : {}),
      });
      throw err;
    }
  }

  return defineActor({
    kind: 'connectors',
    messages: {
      'connectors.list': ConnectorsListMessageSchema,
      'connectors.get': ConnectorsGetMessageSchema,
      'connectors.create': ConnectorsCreateMessageSchema,
      'connectors.update': ConnectorsUpdateMessageSchema,
      'connectors.delete': ConnectorsDeleteMessageSchema,
      'connectors.refresh': ConnectorsRefreshMessageSchema,
      'connectors.call': ConnectorsCallMessageSchema,
      'connectors.describe': ConnectorsDescribeMessageSchema,
      'connectors.tools': ConnectorsToolsMessageSchema,
      'connectors.outcome': ConnectorsOutcomeMessageSchema,
      'connectors.forward': ConnectorsForwardMessageSchema,
    },
    activate: (): State => ({ docs: new Map(), audit: new AuditBuffer(repo, options.auditFlushMs ?? 5000) }),
    passivate: (_ctx, state) => state.audit.flushAll(),
    handlers: {
      'connectors.list': async (ctx) => {
        operatorOf(ctx.auth, ctx.id);
        const docs = await repo.find(
          { accountId: ctx.id },
          { sort: { createdAt: 1 }, limit: MAX_CONNECTORS_PER_ACCOUNT * 2 },
        );
        return { connectors: docs.map((doc) => view(ctx.state, doc)) };
      },

      'connectors.get': async (ctx, { slug }) => {
        operatorOf(ctx.auth, ctx.id);
        return { connector: view(ctx.state, await find(ctx.state, ctx.id, slug)) };
      },

      'connectors.create': async (ctx, body) => {
        const accountId = ctx.id;
        manager(ctx.auth, accountId);
        await assertMayCreate(accountId, body);
        const id = newConnectorId();
        const env = sealer.sealAll(id, body.env);
        const headers = sealer.sealAll(id, body.headers);
        const spec = {
          id,
          accountId,
          slug: body.slug,
          transport: body.transport,
          command: body.command,
          args: body.args ?? [],
          env: body.env ?? {},
          url: body.url,
          headers: body.headers ?? {},
        };
        return ctx.defer(
          (async () => {
            try {
              const found = await pool.discover(spec, { signal: ctx.signal });
              const doc = newConnectorDocument({ id, accountId, body, env, headers, found });
              const stored = await repo.insertUnique(doc).catch((err: unknown) => {
                const fields = isAppError(err) && Array.isArray(err.details.fields) ? err.details.fields : [];
                if (fields.includes('slug')) {
                  throw errors.conflict(`A connector with slug "${body.slug}" already exists`, {
                    field: 'slug',
                  });
                }
                throw err;
              });
              return { connector: connectorView(stored, sealer) };
            } catch (err) {
              await pool.close(id);
              throw err;
            }
          })(),
        );
      },

      'connectors.update': async (ctx, { slug, changes }) => {
        manager(ctx.auth, ctx.id);
        const doc = await find(ctx.state, ctx.id, slug);
        const updated = await repo.updateIfVersion(doc._id, doc.version, {
          $set: {
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
            ...(changes.permissionScope !== undefined ? { permissionScope: changes.permissionScope } : {}),
            updatedAt: new Date(),
          },
        });
        ctx.state.docs.delete(slug);
        if (changes.enabled === false && doc.enabled) {
          await options.announceClosed(doc._id);
        }
        return { connector: view(ctx.state, updated) };
      },

      'connectors.delete': async (ctx, { slug }) => {
        manager(ctx.auth, ctx.id);
        const doc = await find(ctx.state, ctx.id, slug);
        if (!(await repo.deleteOne({ _id: doc._id, accountId: ctx.id }))) throw notFound(slug);
        ctx.state.docs.delete(slug);
        const shown = view(ctx.state, doc);
        ctx.state.audit.forget(doc._id);
        return ctx.defer(
          (async () => {
            // Here first (the answer waits for this node's child to end), then the other nodes.
            await pool.close(doc._id);
            await options.announceClosed(doc._id);
            return { deleted: true as const, connector: shown };
          })(),
        );
      },

      'connectors.refresh': async (ctx, { slug }) => {
        manager(ctx.auth, ctx.id);
        const doc = await find(ctx.state, ctx.id, slug);
        if (!doc.enabled)
          throw errors.conflict(`Connector "${slug}" is disabled: enable it before refreshing`);
        let spec: ConnectorSpec;
        try {
          spec = await openForUse(ctx, doc);
        } catch (err) {
          if (!isAppError(err) || !isSealingError(err)) throw err;
          // As for a server that cannot be reached: 200, and the health says why.
          const updated = await repo.findOneAndUpdate(
            { _id: doc._id },
            failedDiscoveryUpdate(err.message, new Date(), String(err.details.reason)),
          );
          ctx.state.docs.delete(slug);
          if (!updated) throw notFound(slug);
          return { connector: view(ctx.state, updated) };
        }
        ctx.state.docs.delete(slug);
        return ctx.defer(
          (async () => {
            let update;
            try {
              update = discoveredUpdate(await pool.discover(spec, { signal: ctx.signal, fresh: true }));
            } catch (err) {
              if (ctx.signal.aborted) throw err;
              update = failedDiscoveryUpdate(isAppError(err) ? err.message : 'Discovery failed');
            }
            const updated = await repo.findOneAndUpdate({ _id: doc._id }, update);
            if (!updated) throw notFound(slug);
            return { connector: connectorView(updated, sealer) };
          })(),
        );
      },

      'connectors.call': async (ctx, body) => {
        operatorOf(ctx.auth, ctx.id);
        const doc = await find(ctx.state, ctx.id, body.slug, false);
        if (!doc.enabled) throw errors.conflict(`Connector "${doc.slug}" is disabled`);
        if (!doc.tools.some((t) => t.name === body.tool)) {
          throw errors.notFound(
            `Unknown tool: mcp.${doc.slug}.${body.tool} (the server did not announce it; refresh the connector if it is new)`,
            { reason: UNKNOWN_TOOL },
          );
        }
        assertInScope(doc, body.related);
        let spec: ConnectorSpec;
        try {
          spec = await openForUse(ctx, doc);
        } catch (err) {
          if (!isSealingError(err)) throw err;
          // The health shows it at once (the message names the header or variable, never a value).
          await markUnreadable(repo, doc, err)
            .then(() =>
              ctx.state.audit.record(doc, {
                connectorId: doc._id,
                tool: body.tool,
                at: Date.now(),
                success: false,
              }),
            )
            .catch((e: unknown) =>
              ctx.logger.warn({ err: e, connectorId: doc._id }, 'connector health not recorded'),
            );
          ctx.state.docs.delete(doc.slug);
          throw err;
        }
        return ctx.defer(runCall(ctx, doc, spec, body));
      },

      'connectors.describe': async (ctx, { slug, tool }) => {
        operatorOf(ctx.auth, ctx.id);
        const doc = await find(ctx.state, ctx.id, slug, false);
        const found = doc.tools.find((t) => t.name === tool);
        if (!found) throw errors.notFound(`Unknown tool: mcp.${slug}.${tool}`, { reason: UNKNOWN_TOOL });
        if (!doc.enabled) throw errors.conflict(`Connector "${slug}" is disabled`);
        return { readOnly: found.readOnly, transport: doc.transport };
      },

      'connectors.forward': async (ctx, body) => {
        operatorOf(ctx.auth, ctx.id);
        const doc = await find(ctx.state, ctx.id, body.slug, false);
        if (!doc.enabled) throw errors.conflict(`Connector "${doc.slug}" is disabled`);
        const spec = await openForUse(ctx, doc);
        const work = (signal: AbortSignal, timeoutMs: number) =>
          forwardOnPool(pool, spec, body.method, body.params, { signal, timeoutMs });
        return ctx.defer(runCall(ctx, doc, spec, { tool: body.method }, work));
      },

      'connectors.tools': async (ctx) => {
        operatorOf(ctx.auth, ctx.id);
        const docs = await repo.find(
          { accountId: ctx.id, enabled: true },
          { limit: MAX_CONNECTORS_PER_ACCOUNT * 2 },
        );
        return { tools: routerToolEntries(docs) };
      },

      'connectors.outcome': async (ctx, outcome) => {
        // Only the actor's own deferred work reports outcomes.
        if (ctx.envelope.from !== ctx.address) throw errors.forbidden('Not allowed');
        const cached = [...ctx.state.docs.values()].find(
          (d) => d.doc._id === outcome.connectorId && Date.now() - d.at < docTtlMs,
        )?.doc;
        const doc = cached ?? (await repo.findOne({ _id: outcome.connectorId, accountId: ctx.id }));
        if (!doc) return;
        if (await ctx.state.audit.record(doc, outcome)) ctx.state.docs.delete(doc.slug);
      },
    },
  });
}
