import { lastValueFrom, takeWhile } from 'rxjs';
import type { Principal } from '../../schemas/auth';
import { isAppError } from '../../schemas/errors';
import type { ExecutionEvent } from '../../schemas/messages/executions';
import type { Services } from '../../src/boot/services';
import type { ActorSystemApi } from '../../src/kernel/kernel.types';
import { newExecutionId } from '../executions/executions';
import type { ToolRegistry, ToolTarget } from '../tools/router/tool-registry';
import { ConfirmTokens, CONFIRM_TOKEN_TTL_S } from './confirm-tokens';
import { STUDIO_COMMAND_TYPE } from './studio-command.runner';
import { answerApps, appInstallPlan } from './studio-apps';
import { searchSkills, skillInstallPlan, skillUsePlan, type ActionPlan } from './studio-skills';
import {
  parseStudioCommand,
  STUDIO_COMMANDS,
  StudioSyntaxError,
  type ParsedCommand,
  type StudioCommand,
} from './studio-grammar';

/** The answer of `POST /api/studio/command` (docs/studio.md). */
export interface StudioReply {
  kind: 'help' | 'preview' | 'result' | 'error';
  summary: string;
  result?: unknown;
  snippet?: string;
  confirmToken?: string;
  /** Seconds the confirmToken stays valid. */
  expiresIn?: number;
  /** The execution that ran the command (commands that call a tool). */
  execution?: { id: string; status: string };
}

/** A tool the caller may call, as `tools list` shows it. */
export interface StudioToolEntry {
  name: string;
  description: string;
  readOnly: boolean;
}

/** A tool with its input's JSON Schema (what the model is offered). */
export interface StudioToolDefinition extends StudioToolEntry {
  inputSchema: Record<string, unknown>;
}

/** What the commands need from the process (the route builds it). */
export interface StudioEnv {
  readonly system: ActorSystemApi;
  readonly services: Services;
  readonly registry: ToolRegistry;
  /** Deadline of one call of the tool (the tool router's). */
  deadlineMs(target: ToolTarget): number;
  /** The tools the caller may call (built-in and its connector tools), sorted by name. */
  listTools(principal: Principal): Promise<StudioToolEntry[]>;
  /** The same, with their input schemas (absent: no tool is offered to the model). */
  listToolDefinitions?(principal: Principal): Promise<StudioToolDefinition[]>;
  /** The caller's account's connectors (`GET /api/connectors` entries). */
  listConnectors(principal: Principal): Promise<unknown[]>;
  /**
   * Runs a tool call inside an execution that already exists (the intent stream's step). Absent:
   * each command that runs a tool creates its own STUDIO_COMMAND execution.
   */
  runTool?(tool: string, input: Record<string, unknown>): Promise<unknown>;
}

export interface StudioRequest {
  command: string;
  confirmToken?: string;
  advancedMode: boolean;
  /** false: a preview carries no confirmToken (the caller issues it itself). Default true. */
  issueToken?: boolean;
}

type Caller = Principal & { accountId: string };

const INFRASTRUCTURE_CODES = new Set(['INTERNAL_ERROR', 'UNAVAILABLE', 'DEADLINE_EXCEEDED']);
const mcpSnippet = (tool: string, input: Record<string, unknown>) =>
  `POST /mcp ${JSON.stringify({ tool, input })}`;

const snippetOf = (plan: { tool: string; input: Record<string, unknown>; target: ToolTarget }) =>
  mcpSnippet(plan.target.kind === 'platform' ? `platform.${plan.tool}` : plan.tool, plan.input);

const errorReply = (summary: string, result?: unknown): StudioReply =>
  result === undefined ? { kind: 'error', summary } : { kind: 'error', summary, result };

/** What a command that calls a tool would call, and whether it changes state. */
interface ToolPlan {
  kind?: 'tool';
  tool: string;
  input: Record<string, unknown>;
  mutating: boolean;
  target: ToolTarget;
}

async function planOf(
  env: StudioEnv,
  principal: Caller,
  command: StudioCommand,
): Promise<ToolPlan | ActionPlan | undefined> {
  switch (command.kind) {
    case 'skills.install':
      return skillInstallPlan(env, principal, command.slug);
    case 'apps.install':
      return appInstallPlan(env, principal, command.slug);
    case 'skills.use': {
      if (!env.runTool) return skillUsePlan(env, principal, command);
      // Inside a chat's execution: the capability as a tool of the execution's owner.
      const plan = await skillUsePlan(env, principal, command);
      const target = env.registry.resolve(`platform.skill.${command.slug}.${command.capability}`);
      return { tool: target.name, input: command.input, mutating: plan.mutating, target };
    }
    case 'tool.run': {
      const target = env.registry.resolve(command.tool);
      const mutating =
        target.kind === 'platform'
          ? target.declaration.mutating
          : await connectorMutating(env, principal, target.name);
      return { tool: target.name, input: command.input, mutating, target };
    }
    case 'mcp.call': {
      const target = env.registry.resolve(`mcp.${command.server}.${command.tool}`);
      return {
        tool: target.name,
        input: command.input,
        mutating: await connectorMutating(env, principal, target.name),
        target,
      };
    }
    case 'advanced.run': {
      const target = env.registry.resolve('proc_execute');
      return {
        tool: target.name,
        input: { language: command.language, code: command.code },
        mutating: true,
        target,
      };
    }
    default:
      return undefined;
  }
}

/** A connector tool is mutating unless the caller's listing marks it read-only. */
async function connectorMutating(env: StudioEnv, principal: Caller, name: string): Promise<boolean> {
  const tools = await env.listTools(principal);
  return !tools.find((t) => t.name === name)?.readOnly;
}

function helpReply(): StudioReply {
  return {
    kind: 'help',
    summary:
      'Studio commands: read-only ones run at once; mutating ones answer a preview with a confirmToken.',
    result: { commands: STUDIO_COMMANDS },
  };
}

/** Read-only commands that call no tool. */
async function answerDirect(
  env: StudioEnv,
  principal: Caller,
  request: StudioRequest,
  command: StudioCommand,
) {
  switch (command.kind) {
    case 'help':
      return helpReply();
    case 'status': {
      const [tools, connectors] = await Promise.all([
        env.listTools(principal),
        env.listConnectors(principal),
      ]);
      return {
        kind: 'result',
        summary: `${tools.length} tools, ${connectors.length} connectors; advanced mode ${request.advancedMode ? 'on' : 'off'}`,
        result: {
          tools: tools.length,
          builtinTools: env.registry.size,
          connectors: connectors.length,
          advancedMode: request.advancedMode,
        },
      } satisfies StudioReply;
    }
    case 'tools.list': {
      const tools = await env.listTools(principal);
      return {
        kind: 'result',
        summary: `${tools.length} tools`,
        result: { tools },
        snippet: 'GET /tools',
      } satisfies StudioReply;
    }
    case 'mcp.list': {
      const connectors = await env.listConnectors(principal);
      return {
        kind: 'result',
        summary: `${connectors.length} connectors`,
        result: { connectors },
        snippet: 'GET /api/connectors',
      } satisfies StudioReply;
    }
    case 'skills.search':
      return searchSkills(env, command.query);
    default:
      return answerApps(env, principal, command);
  }
}

/** Runs the tool of a command as an execution (STUDIO_COMMAND, sourceType studio) and waits for its end. */
async function runAsExecution(
  env: StudioEnv,
  principal: Caller,
  parsed: ParsedCommand,
  plan: ToolPlan,
): Promise<StudioReply> {
  const id = newExecutionId();
  await env.system.ask(
    `execution:${id}`,
    'execution.create',
    {
      type: STUDIO_COMMAND_TYPE,
      title: parsed.normalized.slice(0, 180),
      sourceType: 'studio',
      input: { command: parsed.normalized.slice(0, 2000), tool: plan.tool, input: plan.input },
    },
    { auth: principal },
  );
  // The watch answers the current state, then every change, and completes after `done`.
  const timeoutMs = env.deadlineMs(plan.target) + 15_000;
  // A pause (by someone, meanwhile) ends the wait too: the execution stays PAUSED.
  await lastValueFrom(
    env.system
      .stream<ExecutionEvent>(`execution:${id}`, 'execution.watch', {}, { auth: principal, timeoutMs })
      .pipe(takeWhile((e) => !(e.type === 'execution' && e.execution.status === 'PAUSED'), true)),
    { defaultValue: undefined },
  );
  const doc = await env.services.executions.queries.get(principal.accountId, id);
  const execution = { id, status: doc.status };
  const snippet = snippetOf(plan);
  if (doc.status === 'COMPLETED') {
    return { kind: 'result', summary: `${plan.tool} ran`, result: doc.result ?? null, snippet, execution };
  }
  const failure = doc.failure;
  return {
    kind: 'error',
    summary: failure ? `${failure.code}: ${failure.message}` : `The execution is ${doc.status}`,
    result: { code: failure?.code ?? doc.status },
    snippet,
    execution,
  };
}

/**
 * One Studio command (docs/studio.md): parse, answer read-only commands at once, preview mutating
 * ones with a confirmToken, and run them when repeated with it. Command-level failures are
 * answered as `kind: 'error'` (HTTP 200); only infrastructure failures reject.
 */
export async function runStudioCommand(
  env: StudioEnv,
  principal: Caller,
  request: StudioRequest,
): Promise<StudioReply> {
  let parsed: ParsedCommand;
  try {
    parsed = parseStudioCommand(request.command);
  } catch (err) {
    if (err instanceof StudioSyntaxError) return errorReply(err.message, { code: 'SYNTAX_ERROR' });
    throw err;
  }
  const { command } = parsed;
  try {
    if (command.kind === 'advanced.run' && !request.advancedMode) {
      return errorReply('Advanced commands need advancedMode: true', { code: 'PERMISSION_DENIED' });
    }
    const direct = await answerDirect(env, principal, request, command);
    if (direct) return direct;
    const plan = await planOf(env, principal, command);
    if (!plan) return errorReply(`Unknown command (type help)`, { code: 'SYNTAX_ERROR' });

    const tokens = new ConfirmTokens(env.services.cache);
    if (plan.mutating) {
      if (request.confirmToken === undefined) {
        const preview: StudioReply = {
          kind: 'preview',
          summary: `"${parsed.normalized.slice(0, 200)}" changes state: send the same command with this confirmToken within ${CONFIRM_TOKEN_TTL_S} s to run it`,
          result:
            plan.kind === 'action' ? plan.preview : { tool: plan.tool, input: plan.input, mutating: true },
          snippet: plan.kind === 'action' ? plan.snippet : snippetOf(plan),
        };
        if (request.issueToken === false) return preview;
        const confirmToken = await tokens.issue(principal, parsed.normalized, request.advancedMode);
        return { ...preview, confirmToken, expiresIn: CONFIRM_TOKEN_TTL_S };
      }
      if (!(await tokens.redeem(principal, parsed.normalized, request.advancedMode, request.confirmToken))) {
        return errorReply(
          'The confirmToken is invalid, expired, already used, or for another command or caller',
          {
            code: 'INVALID_CONFIRM_TOKEN',
          },
        );
      }
    }
    if (plan.kind === 'action') return await plan.run();
    if (env.runTool) {
      const result = await env.runTool(plan.tool, plan.input);
      return {
        kind: 'result',
        summary: `${plan.tool} ran`,
        result: result ?? null,
        snippet: snippetOf(plan),
      };
    }
    return await runAsExecution(env, principal, parsed, plan);
  } catch (err) {
    // Infrastructure failures stay HTTP errors (503, 504, 500); the rest is about the command.
    if (isAppError(err) && !INFRASTRUCTURE_CODES.has(err.code))
      return errorReply(err.message, { code: err.code });
    throw err;
  }
}
