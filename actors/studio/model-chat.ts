import { AppError, errors } from '../../schemas/errors';
import { MAX_JSON_DEPTH, jsonTextTooDeep } from '../../schemas/json-depth';
import type { Principal } from '../../schemas/auth';
import type { StepContext } from '../executions/executions';
import { streamChatTurn, type ChatMessage, type LlmSettings, type ModelToolCall } from './llm-client';
import { modelToolsOf, type ModelTools } from './model-tools';
import { runStudioCommand, type StudioEnv } from './studio-commands';
import { parseStudioCommand } from './studio-grammar';

/** Model turns that may call tools, before the model must answer (docs/studio.md, "Tool calls"). */
export const MAX_TOOL_ROUNDS = 4;
/** Characters of one tool result sent back to the model (longer: cut, and said so). */
const MAX_TOOL_RESULT_CHARS = 16_000;

/** What a chat step emits while it runs (`StepContext.emit`): a piece of the model's reply. */
export interface ChatEmit {
  type: 'delta';
  delta: string;
}

/** How a conversation with the model ended. */
export type ModelChatOutcome =
  | { kind: 'reply'; text: string }
  /** The model called a mutating tool: the normalised Studio command waiting for approval. */
  | { kind: 'proposal'; text: string; command: string; tool: string; input: Record<string, unknown> };

interface CheckedCall {
  id: string;
  tool: string;
  input: Record<string, unknown>;
  command: string;
}

/** A tool call of the model, checked: a tool it was offered, and arguments that are a JSON object. */
function checkCall(call: ModelToolCall, tools: ModelTools): CheckedCall {
  const tool = tools.byFunction.get(call.name);
  if (!tool) {
    throw errors.validation(`The model called a tool it was not offered: "${call.name.slice(0, 100)}"`);
  }
  if (call.tooLong) throw errors.validation(`The model's arguments for ${tool} are too long`);
  if (jsonTextTooDeep(call.arguments)) {
    throw errors.validation(
      `The model's arguments for ${tool} are nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  let input: unknown;
  try {
    input = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    throw errors.validation(
      `The model called ${tool} with arguments that are not valid JSON: ${call.arguments.slice(0, 200)}`,
    );
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw errors.validation(`The model called ${tool} with arguments that are not a JSON object`);
  }
  const record = input as Record<string, unknown>;
  return { id: call.id, tool, input: record, command: `tool run ${tool} --json ${JSON.stringify(record)}` };
}

const cut = (text: string) =>
  text.length <= MAX_TOOL_RESULT_CHARS
    ? text
    : `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… (cut at ${MAX_TOOL_RESULT_CHARS} characters)`;

/**
 * The model answers the message, calling tools on the way: the caller's tools are offered (OpenAI
 * `tools`), each call becomes the Studio command `tool run <tool> --json <arguments>` and is
 * classified by the Studio's rules. A read-only one runs at once through the tool router as the
 * execution's owner (`ctx.callTool`) and its result (or its error) goes back to the model as a
 * `tool` message; the first mutating one ends the conversation as a proposal (the chat pauses for
 * approval). At most MAX_TOOL_ROUNDS turns with tool calls; pieces of text go to `ctx.emit`.
 */
export async function converseWithModel(
  ctx: StepContext,
  llm: LlmSettings,
  env: StudioEnv,
  caller: Principal & { accountId: string },
  messages: ChatMessage[],
): Promise<ModelChatOutcome> {
  const tools = modelToolsOf(env.listToolDefinitions ? await env.listToolDefinitions(caller) : []);
  for (let round = 0; ; round++) {
    const turn = await streamChatTurn(llm, messages, {
      signal: ctx.signal,
      tools: tools.specs,
      onText: (delta) => ctx.emit({ type: 'delta', delta } satisfies ChatEmit),
    });
    if (turn.toolCalls.length === 0) return { kind: 'reply', text: turn.text };
    if (round >= MAX_TOOL_ROUNDS) {
      throw new AppError(
        'UNAVAILABLE',
        `The model kept calling tools: no answer after ${MAX_TOOL_ROUNDS} rounds of tool calls`,
        {},
        { retryable: false },
      );
    }
    const calls = turn.toolCalls.map((call) => checkCall(call, tools));
    messages.push({
      role: 'assistant',
      content: turn.text || null,
      tool_calls: turn.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const call of calls) {
      await ctx.log('info', `The model called ${call.tool}`);
      const reply = await runStudioCommand(env, caller, {
        command: call.command,
        advancedMode: false,
        issueToken: false,
      });
      if (reply.kind === 'preview') {
        const command = parseStudioCommand(call.command).normalized;
        return { kind: 'proposal', text: turn.text, command, tool: call.tool, input: call.input };
      }
      const content =
        reply.kind === 'error'
          ? { error: reply.summary, code: (reply.result as { code?: unknown } | undefined)?.code }
          : (reply.result ?? null);
      messages.push({ role: 'tool', tool_call_id: call.id, content: cut(JSON.stringify(content)) });
    }
  }
}
