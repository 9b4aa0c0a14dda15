import type { Principal } from '../../schemas/auth';
import type { IntentStreamBody } from '../../schemas/http/studio';
import type { Config } from '../../src/config/load-config';
import { startAtOnce, type AtOnceRun } from '../executions/execution-at-once';
import { executionSummary } from '../executions/execution-views';
import { newExecutionId, type ExecutionsService } from '../executions/executions';
import { CHAT_EXECUTION_TYPE, type ChatOutput } from './chat.runner';
import { planIntent } from './intent-planner';
import type { IntentEvent } from './intent-stream';
import { llmSettingsOf } from './llm-client';
import { parseStudioCommand } from './studio-grammar';

/** Commands that read this node's listings only: no tool call, no proposal, no model. */
const AT_ONCE_COMMANDS = new Set(['help', 'status', 'tools.list', 'mcp.list', 'skills.search']);

/**
 * Whether a chat message is answered at once, on the node that got the request, without a hop to
 * a worker: the help text when no model answers free text, and the read-only Studio commands that
 * call no tool (`status`, `tools list`, `mcp list`, `skills search`). Anything that calls a tool,
 * proposes a change or asks the model goes through the execution actor.
 */
export function answeredAtOnce(message: string, config: Partial<Config> | undefined): boolean {
  const plan = planIntent(message);
  if (plan.kind === 'reply') return !llmSettingsOf(config ?? {}) || message.trim().toLowerCase() === 'help';
  try {
    return AT_ONCE_COMMANDS.has(parseStudioCommand(plan.command).command.kind);
  } catch {
    return false; // a syntax error fails the execution: the ordinary way reports it
  }
}

/** An intent answered at once: its first event (the stored record), the rest to come from `finish`. */
export interface OpenedAtOnce {
  readonly first: IntentEvent;
  /** Runs the step and records its end; resolves the final `reply` (or `error`) and `done`. */
  finish(): Promise<IntentEvent[]>;
}

/**
 * One chat message answered at once (docs/studio.md, "Answered at once"): its CHAT_EXECUTION is
 * stored RUNNING (record and first log lines) before this resolves, so the first event
 * (`execution`) can go out; `finish` then runs the step here and records the end like the actor
 * would, giving the final `reply` (or `error`) and `done`. Failures before the record is stored
 * (403 lockdown, 404 workspace) reject: the route answers them as HTTP errors.
 */
export async function openIntentAtOnce(
  executions: ExecutionsService,
  caller: Principal & { accountId: string },
  { message, sessionId, workspaceId, projectId }: IntentStreamBody,
): Promise<OpenedAtOnce> {
  const run = await startAtOnce(executions, newExecutionId(), caller, {
    type: CHAT_EXECUTION_TYPE,
    title: message.slice(0, 180),
    sourceType: 'super_agent',
    input: projectId ? { message, projectId } : { message },
    sessionId,
    ...(workspaceId ? { workspaceId } : {}),
    start: true,
  });
  return {
    first: { type: 'execution', execution: executionSummary(run.doc) },
    finish: async () => endEvents(await run.finish()),
  };
}

/** The events after `execution` of an intent answered at once: `reply` or `error`, then `done`. */
function endEvents({ doc, error }: Awaited<ReturnType<AtOnceRun['finish']>>): IntentEvent[] {
  const executionId = doc._id;
  const events: IntentEvent[] = [];
  const output = doc.steps[0]?.output as ChatOutput | undefined;
  if (doc.status === 'COMPLETED' && output?.reply) {
    events.push({
      type: 'reply',
      executionId,
      final: true,
      text: output.reply,
      ...(output.command ? { command: output.command } : {}),
      ...(output.result !== undefined ? { result: output.result } : {}),
    });
  } else {
    const failure = doc.failure;
    events.push({
      type: 'error',
      executionId,
      error: failure?.message ?? error?.error ?? `The execution ended ${doc.status}`,
      code: failure?.code ?? error?.code ?? doc.status,
    });
  }
  events.push({ type: 'done', executionId, status: doc.status });
  return events;
}
