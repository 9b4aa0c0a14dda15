import { z } from 'zod';
import { AppError, isErrorCode } from '../../schemas/errors';
import type { StepOutcome } from '../../schemas/messages/executions';
import { runAsPrincipal } from '../executions/execution-steps';
import type { StepContext, StepRunner } from '../executions/executions';
import { planIntent } from './intent-planner';
import { llmSettingsOf } from './llm-client';
import { converseWithModel } from './model-chat';
import { runStudioCommand } from './studio-commands';
import { parseStudioCommand } from './studio-grammar';

/** The execution type of one message of the Studio intent stream. */
export const CHAT_EXECUTION_TYPE = 'CHAT_EXECUTION';

export const ChatInputSchema = z.object({
  message: z.string().min(1).max(20_000),
  projectId: z.string().min(1).max(200).optional(),
});
export type ChatInput = z.infer<typeof ChatInputSchema>;

/**
 * What a chat step reports as its output (and, when it is the last, as the result): the reply and,
 * for a proposal waiting for approval, the normalised command to confirm. The route reads it to
 * build the `reply` event.
 */
export interface ChatOutput {
  reply: string;
  /** The model that wrote the reply (the LLM path). */
  model?: string;
  command?: string;
  result?: unknown;
  /** A mutating command proposed: the execution is PAUSED until it is approved. */
  proposal?: { command: string; tool?: unknown; input?: unknown };
}

/** The caller the chat's commands run as: the execution's owner. */
function callerOf(ctx: StepContext<ChatInput>) {
  const { principal } = runAsPrincipal(ctx.execution);
  return { ...principal, accountId: principal.accountId ?? ctx.execution.accountId };
}

/** The Studio's environment inside the chat step: tools run in this execution (`ctx.callTool`). */
const studioEnvFor = (ctx: StepContext<ChatInput>) => ({
  ...ctx.services.studio,
  runTool: ctx.callTool,
});

/** A mutating command proposed (by the planner or the model): the step pauses for approval. */
async function proposalOutcome(
  ctx: StepContext<ChatInput>,
  command: string,
  proposed: { tool?: unknown; input?: unknown },
  model?: string,
  text?: string,
): Promise<StepOutcome> {
  const output: ChatOutput = {
    reply: `${text ? `${text}\n` : ''}${command.slice(0, 300)} changes state: approve it to run it.`,
    command,
    proposal: { command, tool: proposed.tool, input: proposed.input },
    ...(model ? { model } : {}),
  };
  await ctx.log('info', `Waiting for approval: ${command.slice(0, 500)}`);
  return { name: 'plan', output, pause: `Waiting for approval: ${command.slice(0, 400)}` };
}

export type { ChatEmit } from './model-chat';

/**
 * `CHAT_EXECUTION` (sourceType super_agent): the deterministic planner maps the message to a
 * Studio command (docs/studio.md). Step 0 (`plan`) answers a plain reply, runs a read-only command
 * through the tool router as the execution's owner, or, for a mutating command, reports the
 * proposal and pauses for approval (an `approval` notification). Step 1 (`approval`), after a
 * resume, closes the turn: the proposal itself runs through `POST /api/studio/command` with the
 * confirmToken of the `reply` event.
 */
export const chatRunner: StepRunner<ChatInput> = {
  type: CHAT_EXECUTION_TYPE,
  input: ChatInputSchema,
  totalSteps: () => null,
  stepName: (_input, index) => (index === 0 ? 'plan' : 'approval'),
  stepTimeoutMs: 120_000,
  async step(ctx) {
    if (ctx.index > 0) {
      const output: ChatOutput = {
        reply: 'Resumed. A proposal runs through POST /api/studio/command with its confirmToken.',
      };
      return { name: 'approval', output, result: output, last: true };
    }
    await ctx.log('info', 'Intent received');
    const plan = planIntent(ctx.input.message);
    const llm = llmSettingsOf(ctx.services.config);
    if (plan.kind === 'reply' && llm && ctx.input.message.trim().toLowerCase() !== 'help') {
      // Free text with a model configured: the model answers, calling the caller's tools on the way.
      await ctx.log('info', `Asking the model ${llm.model}`);
      const outcome = await converseWithModel(ctx, llm, studioEnvFor(ctx), callerOf(ctx), [
        { role: 'system', content: `You are the assistant of the agent runtime Studio.\n${plan.text}` },
        { role: 'user', content: ctx.input.message },
      ]);
      if (outcome.kind === 'proposal')
        return proposalOutcome(ctx, outcome.command, outcome, llm.model, outcome.text);
      const output: ChatOutput = { reply: outcome.text || plan.text, model: llm.model };
      await ctx.log('info', 'Reply ready');
      return { name: 'plan', output, result: output, last: true };
    }
    if (plan.kind === 'reply') {
      const output: ChatOutput = { reply: plan.text };
      await ctx.log('info', 'Reply ready');
      return { name: 'plan', output, result: output, last: true };
    }
    await ctx.log('info', `Planned: ${plan.command.slice(0, 500)}`);
    const reply = await runStudioCommand(studioEnvFor(ctx), callerOf(ctx), {
      command: plan.command,
      advancedMode: false,
      issueToken: false,
    });
    if (reply.kind === 'error') {
      const code = (reply.result as { code?: unknown } | undefined)?.code;
      throw new AppError(isErrorCode(code) ? code : 'VALIDATION_ERROR', reply.summary);
    }
    if (reply.kind === 'preview') {
      const command = parseStudioCommand(plan.command).normalized;
      const { tool, input } = (reply.result ?? {}) as { tool?: unknown; input?: unknown };
      return proposalOutcome(ctx, command, { tool, input });
    }
    const output: ChatOutput = { reply: reply.summary, command: plan.command, result: reply.result };
    await ctx.log('info', 'Reply ready');
    return { name: 'plan', output, result: output, last: true };
  },
};
