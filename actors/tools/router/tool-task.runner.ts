import { z } from 'zod';
import type { StepRunner } from '../../executions/executions';

/**
 * `TOOL_EXECUTION` (sourceType `mcp`): one MCP tool call run as a task (docs/tool-router.md,
 * "MCP tasks"). The call is the execution's single step, so it has what every execution has: it is
 * persisted before the client hears of it, runs on whichever worker takes the step (a worker that
 * dies loses its lease and the sweeper fails the task), is listed in `/api/executions`, is stopped
 * by panic, and its status and result are read back by `tasks/get`. The call goes through the
 * router as the task's creator (its `allowedTools`, scopes, rate limit and route record).
 */
export const TOOL_EXECUTION_TYPE = 'TOOL_EXECUTION';

/** The source of the executions MCP tasks are (what `tasks/*` read back). */
export const MCP_TASK_SOURCE = 'mcp';

export const ToolTaskInputSchema = z.object({
  /** The tool's name as the client sent it (`platform.proc_execute`, `mcp.<slug>.<tool>`, …). */
  tool: z.string().min(1).max(300),
  input: z.record(z.string(), z.unknown()),
  /** How long the client may read the task after its creation, in ms; null: as long as the execution is kept. */
  ttlMs: z.number().int().positive().nullable(),
});
export type ToolTaskInput = z.infer<typeof ToolTaskInputSchema>;

/** Long enough for the longest tool (a connector call, a skill's capability, a sandbox run). */
const TOOL_TASK_STEP_TIMEOUT_MS = 10 * 60_000;

export const toolTaskRunner: StepRunner<ToolTaskInput> = {
  type: TOOL_EXECUTION_TYPE,
  input: ToolTaskInputSchema,
  totalSteps: () => 1,
  stepName: (input) => input.tool,
  stepTimeoutMs: TOOL_TASK_STEP_TIMEOUT_MS,
  async step(ctx) {
    await ctx.log('info', `Calling ${ctx.input.tool}`);
    const invokedByType = ctx.execution.runAs.subjectType === 'agent' ? 'agent' : 'account';
    const result = await ctx.callTool(ctx.input.tool, ctx.input.input, { invokedByType });
    await ctx.log('info', `${ctx.input.tool} answered`);
    // The tool's result is the execution's (and the task's) result; the step keeps no copy.
    return { name: ctx.input.tool, result: result ?? null, last: true };
  },
};
