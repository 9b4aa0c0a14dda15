import { PrincipalSchema, type Principal } from '../../../schemas/auth';
import type { AgentDocument } from '../../../schemas/documents/agent';
import type { RouteSource } from '../../../schemas/documents/route-record';
import { errors, isAppError } from '../../../schemas/errors';
import {
  AGENT_CHANGED_BROADCAST,
  AgentChangedBroadcastSchema,
  type AgentInvokeToolCall,
  type AgentInvokeToolReply,
  type AgentListToolsReply,
} from '../../../schemas/messages/tools';
import { isToolAllowed, PLATFORM_PREFIX } from '../../../schemas/tools/primitives';
import type { Services } from '../../../src/boot/services';
import type { ActorContext } from '../../../src/kernel/actor-definition';
import { telemetry } from '../../../src/telemetry/tracing';
import type { AgentState, AgentToolHandlers } from '../../identity/agent.actor';
import { accountsCollection } from '../../identity/accounts.collection';
import { workspaceLookups } from '../../identity/agents-and-tokens';
import { agentsCollection } from '../../identity/agents.collection';
import {
  accountOfDefaultAgent,
  defaultAgentIdOf,
  ensureDefaultAgent,
  type DefaultAgentDeps,
} from './default-agent';
import { redactSecrets } from './redact-secrets';
import type { RouteRecordInput } from './route-pages';
import { ToolCallContext } from './tool-context';
import type { ToolAgent, ToolContext } from './tool-declaration';
import { parseToolInput } from './tool-input';
import { unknownTool, type ExternalTool, type ToolTarget } from './tool-registry';

/** The scope a named token needs for the router (docs/agents-and-tokens.md, Scopes → routes). */
const ROUTER_SCOPE = 'mcp_connector';
/** Names of skill capabilities: `platform.skill.<slug>.<capability>`. */
const SKILL_PREFIX = 'platform.skill.';

// Shared by the route records of calls that name nothing (records are only serialised, never changed).
const NO_RELATED = Object.freeze({
  apps: Object.freeze([]),
  workflows: Object.freeze([]),
  skills: Object.freeze([]),
}) as unknown as RouteRecordInput['related'];
/** `related` of a call to `platform.skill.<slug>.<capability>`: that skill. */
function skillRelated(name: string): RouteRecordInput['related'] {
  const slug = name.slice(SKILL_PREFIX.length).split('.')[0];
  return slug ? { apps: [], workflows: [], skills: [slug] } : NO_RELATED;
}

const ROUTE_DECISIONS: Readonly<Record<RouteSource, RouteRecordInput['routeDecision']>> = {
  platform: Object.freeze({ source: 'platform' }),
  external_mcp: Object.freeze({ source: 'external_mcp' }),
  skill: Object.freeze({ source: 'skill' }),
};

/**
 * The caller, who must be the agent itself, or an account acting as its default agent. Anything
 * else (a forged or misrouted message) is PERMISSION_DENIED.
 */
function callerOf(auth: unknown, agentId: string): Principal {
  const parsed = PrincipalSchema.safeParse(auth);
  if (!parsed.success) throw errors.unauthorized();
  const principal = parsed.data;
  const actsAs =
    principal.subjectType === 'agent'
      ? principal.agentId
      : principal.accountId
        ? defaultAgentIdOf(principal.accountId)
        : undefined;
  if (actsAs !== agentId) throw errors.forbidden('Not allowed to call tools as this agent');
  return principal;
}

// One view per agent document (the actor's state, replaced when reloaded): not one per call.
const toolAgents = new WeakMap<AgentDocument, ToolAgent>();
function toolAgentOf(doc: AgentDocument): ToolAgent {
  let agent = toolAgents.get(doc);
  if (!agent) {
    agent = Object.freeze({
      id: doc._id,
      agentRef: doc.agentRef,
      ...(doc.accountId ? { accountId: doc.accountId } : {}),
      ...(doc.workspaceId ? { workspaceId: doc.workspaceId } : {}),
      allowedDomains: doc.allowedDomains,
    });
    toolAgents.set(doc, agent);
  }
  return agent;
}

const codeOf = (err: unknown) => (isAppError(err) ? err.code : 'INTERNAL_ERROR');

/** How a target is shown in route records. */
function routeOf(target: ToolTarget): { tool: string; primitive: string; source: RouteSource } {
  switch (target.kind) {
    case 'platform':
      return { tool: `${PLATFORM_PREFIX}${target.name}`, primitive: target.name, source: 'platform' };
    case 'connector':
      return { tool: target.name, primitive: target.name, source: 'external_mcp' };
    case 'skill':
      return { tool: target.name, primitive: target.name, source: 'skill' };
  }
}

/**
 * The tool router's handlers of the agent actor (`agent:<internal id>`, kind defined in
 * actors/identity/agent.actor.ts, which takes these as its `tools` option):
 *
 * - **In the turn** (ordered per agent, nothing slow): the caller is the agent (or its account),
 *   the agent is `active`, the tool is in `allowedTools` (exact names and `prefix.*`/`prefix_*`
 *   patterns), a scoped token has `mcp_connector`, the workspace is not in panic lockdown
 *   (memoised cache flag), the per-agent rate limit has a point left; then the call is counted
 *   by the actor (in memory, written in batches).
 * - **Outside the turn** (`ctx.defer`): input validation, the tool itself, secret redaction of the
 *   result, and the route record. A slow tool never blocks the agent's next call.
 *
 * The agent's document is the actor's state (loaded at activation): no document read per call. A
 * broadcast `agent.changed {agentId}` marks it stale on every node; it is reloaded before the next
 * call. An account's default agent is created on activation (default-agent.ts). The front door
 * sends the tool's name as it resolved it, with its kind: the registry is not asked twice.
 */
export function createAgentToolHandlers(services: Services): AgentToolHandlers {
  const router = services.toolRouter;
  const agents = services.documents.repository(agentsCollection);
  const defaults: DefaultAgentDeps = {
    agents,
    accounts: services.documents.repository(accountsCollection),
    defaultWorkspaceOf: workspaceLookups(services).defaultWorkspaceOf,
  };
  const { registry, limiter, panic, recorder } = router;

  // States of the agents active on this node, so that `agent.changed` can mark them stale.
  const active = new Map<string, AgentState>();
  const stale = new WeakSet<AgentState>();
  services.system.onBroadcast(AGENT_CHANGED_BROADCAST, (body) => {
    const parsed = AgentChangedBroadcastSchema.safeParse(body);
    const state = parsed.success ? active.get(parsed.data.agentId) : undefined;
    if (state) stale.add(state);
  });

  async function authorize(ctx: ActorContext<AgentState>, principal: Principal, target: ToolTarget) {
    const doc = ctx.state.doc;
    if (doc.status !== 'active')
      throw errors.forbidden(`This agent is ${doc.status}: tool calls are refused`);
    if (!isToolAllowed(target.name, doc.allowedTools)) {
      throw errors.forbidden(`Tool ${target.name} is not in this agent's allowedTools`, {
        tool: target.name,
      });
    }
    if (principal.scopes && principal.scopes.length > 0 && !principal.scopes.includes(ROUTER_SCOPE)) {
      throw errors.forbidden(`Token scope required: calling tools needs the "${ROUTER_SCOPE}" scope`);
    }
    if (doc.workspaceId && (await panic.isLocked(doc.workspaceId))) {
      throw errors.forbidden('The workspace is in panic lockdown: tool calls are refused');
    }
    // Usually answered from this node's reservation, without a trip to the cache.
    const pending = limiter.consume(doc._id);
    const decision = pending instanceof Promise ? await pending : pending;
    if (!decision.allowed) {
      throw errors.rateLimited(
        'Too many tool calls for this agent, retry later',
        Math.ceil(decision.retryAfterMs / 1000),
      );
    }
  }

  const resolverOf = (target: ToolTarget) =>
    target.kind === 'connector' ? router.resolvers.connector : router.resolvers.skill;

  async function resolveExternal(
    target: ToolTarget,
    agent: ToolAgent,
    signal: AbortSignal,
  ): Promise<ExternalTool> {
    const tool = await resolverOf(target)?.resolve(target.name, agent, signal);
    if (!tool) throw unknownTool(target.name);
    return tool;
  }

  async function run(
    target: ToolTarget,
    input: Record<string, unknown>,
    toolCtx: ToolContext,
    record: RouteRecordInput,
    started: number,
    /** The kernel's cancel of this request: the caller gave up. */
    cancelled: AbortSignal,
  ): Promise<AgentInvokeToolReply> {
    let error: unknown;
    try {
      let result: unknown;
      if (target.kind === 'platform') {
        const parsed: unknown = parseToolInput(target.name, target.declaration.input, input);
        result = await target.declaration.run(parsed, toolCtx);
      } else {
        result = await (await resolveExternal(target, toolCtx.agent, toolCtx.signal)).run(input, toolCtx);
      }
      return { result: result === undefined ? null : redactSecrets(result) };
    } catch (err) {
      error = err;
      throw err;
    } finally {
      // The record is this call's own object, completed in place; the recorder keeps it as it is now.
      if (error !== undefined) {
        record.status = 'error';
        record.errorCode = codeOf(error);
      }
      // Whatever the tool ended with (an error, or a result such as proc_execute's `cancelled`
      // outcome), a call its caller called off is recorded as cancelled.
      // (The same signal also fires at the request's deadline: that is a failure, not a cancel.)
      if (
        cancelled.aborted &&
        !(isAppError(cancelled.reason) && cancelled.reason.code === 'DEADLINE_EXCEEDED')
      )
        record.status = 'cancelled';
      record.durationMs = Math.round((performance.now() - started) * 100) / 100;
      recorder.record(record, true);
    }
  }

  /** The agent's document, reloaded first when an `agent.changed` broadcast marked it stale. */
  async function currentDoc(ctx: ActorContext<AgentState>): Promise<AgentDocument> {
    if (stale.has(ctx.state)) {
      const doc = await agents.findById(ctx.id);
      if (!doc) throw errors.notFound('No agent registration for this token');
      stale.delete(ctx.state);
      ctx.state.doc = doc;
    }
    return ctx.state.doc;
  }

  /**
   * `agent.listTools`: the connector and skill tools this agent may call (its account's
   * connectors, the capabilities of the skills its account installed, filtered by its
   * `allowedTools`), for the listings. None for an agent that is not active, has no account, or
   * is called with a scoped token without `mcp_connector`; a resolver is asked only when an
   * `allowedTools` entry may reach its tools (`mcp.` for connectors; `platform.skill.` or
   * `platform.*` for skills). The resolvers are asked outside the turn.
   */
  const listTools = async (ctx: ActorContext<AgentState>) => {
    const none: AgentListToolsReply = { tools: [] };
    const principal = callerOf(ctx.auth, ctx.id);
    const doc = await currentDoc(ctx);
    const scoped =
      principal.scopes && principal.scopes.length > 0 && !principal.scopes.includes(ROUTER_SCOPE);
    if (scoped || doc.status !== 'active' || !doc.accountId) return none;
    const reaches = (prefix: string) =>
      doc.allowedTools.some(
        (entry) => entry.startsWith(prefix) || (entry === 'platform.*' && prefix === SKILL_PREFIX),
      );
    const resolvers = [
      reaches('mcp.') ? router.resolvers.connector : undefined,
      reaches(SKILL_PREFIX) ? router.resolvers.skill : undefined,
    ].filter((r): r is NonNullable<typeof r> => r?.list !== undefined);
    if (resolvers.length === 0) return none;
    const allowed = doc.allowedTools;
    const agent = toolAgentOf(doc);
    return ctx.defer(
      (async (): Promise<AgentListToolsReply> => {
        const tools = (await Promise.all(resolvers.map((r) => r.list!(agent, principal, ctx.signal)))).flat();
        return {
          tools: tools
            .filter((tool) => isToolAllowed(tool.name, allowed))
            .map(({ name, description, inputSchema, readOnly, title, outputSchema, annotations }) => ({
              name,
              description,
              inputSchema,
              readOnly,
              ...(title !== undefined ? { title } : {}),
              ...(outputSchema !== undefined ? { outputSchema } : {}),
              ...(annotations !== undefined ? { annotations } : {}),
            })),
        };
      })(),
    );
  };

  const invokeTool = async (
    ctx: ActorContext<AgentState>,
    body: AgentInvokeToolCall,
    countCall: () => void,
  ) => {
    const started = performance.now();
    const principal = callerOf(ctx.auth, ctx.id);
    const doc = await currentDoc(ctx);
    const target = body.kind ? registry.targetOf(body.tool, body.kind) : registry.resolve(body.tool);
    const route = routeOf(target);
    const record: RouteRecordInput = {
      tool: route.tool,
      primitive: route.primitive,
      fallbackUsed: false,
      invokedByType: body.invokedByType,
      routeDecision: ROUTE_DECISIONS[route.source],
      // A skill tool's own call names its skill (route records' `related.skills`).
      related: body.related ?? (target.kind === 'skill' ? skillRelated(target.name) : NO_RELATED),
      agentRef: doc.agentRef,
      agentId: doc._id,
      ...(doc.accountId ? { accountId: doc.accountId } : {}),
      status: 'ok',
      durationMs: 0,
      at: new Date(),
    };
    try {
      await authorize(ctx, principal, target);
      if (target.kind !== 'platform' && !resolverOf(target)) throw unknownTool(target.name);
    } catch (err) {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      recorder.record({ ...record, status: 'error', errorCode: codeOf(err), durationMs }, false);
      throw err;
    }
    countCall();

    // Registered with the process's work registry, so that the panic button (`work.abortAll`,
    // by account or workspace) stops this call too (tool-context.ts: when, for a tool that is not
    // abortable).
    const toolCtx = new ToolCallContext(
      principal,
      toolAgentOf(doc),
      services,
      ctx,
      { accountId: doc.accountId, workspaceId: doc.workspaceId },
      target.kind === 'platform' && target.declaration.abortable === false,
      body.executionId,
      body.related,
    );
    // Progress is wired before the tool starts (it reads `ctx.progress` as it begins).
    const progressed = body.progress === true ? followProgress(ctx, toolCtx) : undefined;
    const tracer = telemetry.tracer;
    const go = () => run(target, body.input, toolCtx, record, started, ctx.signal);
    let work = tracer
      ? tracer.inSpan(
          `tool ${route.tool}`,
          { kind: 'internal', attributes: { 'tool.name': route.tool, 'tool.kind': target.kind } },
          go,
        )
      : go();
    if (progressed) work = progressed(work);
    // The kernel takes the outcome when the turn ends; until then the rejection is handled here.
    const release = () => toolCtx.release();
    work.then(release, release);
    return ctx.defer(work);
  };

  return {
    invokeTool,
    listTools,
    createMissing: async (agentId) =>
      accountOfDefaultAgent(agentId) !== undefined && (await ensureDefaultAgent(defaults, agentId)),
    activated: (agentId, state) => void active.set(agentId, state),
    passivated: (agentId, state) => {
      if (active.get(agentId) === state) active.delete(agentId);
    },
  };
}

/** How often progress reports of one call go to its caller at most, in ms. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * A caller that follows the call's progress (`progress: true`, a stream): the tool's reports go
 * as stream items `{progress}` (at most one per PROGRESS_INTERVAL_MS), and then the reply as the
 * last item, since a stream's end carries no value once items were sent.
 */
function followProgress(
  ctx: ActorContext<AgentState>,
  toolCtx: ToolCallContext,
): (work: Promise<AgentInvokeToolReply>) => Promise<AgentInvokeToolReply> {
  let sent = false;
  let lastAt = 0;
  toolCtx.progress = (update) => {
    const now = Date.now();
    if (now - lastAt < PROGRESS_INTERVAL_MS) return;
    lastAt = now;
    sent = true;
    ctx.next({ progress: update });
  };
  return (work) =>
    work.then((reply) => {
      if (sent) ctx.next(reply);
      return reply;
    });
}
