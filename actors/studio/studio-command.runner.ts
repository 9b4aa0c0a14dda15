import { z } from 'zod';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import { dbRowsEffect } from '../executions/db-rows-undoer';
import { runAsPrincipal } from '../executions/execution-steps';
import type { StepRunner } from '../executions/executions';

/** The execution type of a Studio command that runs a tool. */
export const STUDIO_COMMAND_TYPE = 'STUDIO_COMMAND';

export const StudioCommandInputSchema = z.object({
  /** The canonical command (for the log). */
  command: z.string().min(1).max(2000),
  /** The resolved tool name (`mem_get`, `mcp.<server>.<tool>`, `proc_execute`). */
  tool: z.string().min(1).max(300),
  input: z.record(z.string(), z.unknown()).default({}),
});
export type StudioCommandInput = z.infer<typeof StudioCommandInputSchema>;

/**
 * What a tool call changed that a rollback can undo: the rows of a `db_insert` (effect `db_rows`).
 * Other tools record no effect here.
 */
function effectsOf(input: StudioCommandInput, execution: ExecutionDocument, result: unknown) {
  if (input.tool.replace(/^platform\./, '') !== 'db_insert' || typeof input.input.table !== 'string')
    return [];
  const effect = dbRowsEffect(runAsPrincipal(execution).agentId, input.input.table.toLowerCase(), result);
  return effect ? [effect] : [];
}

/**
 * `STUDIO_COMMAND`: one step, one tool call through the tool router as the execution's owner (the
 * same checks as `/mcp`). The tool's result is the execution's result; a tool failure fails the
 * execution (its code and message are the failure).
 */
export const studioCommandRunner: StepRunner<StudioCommandInput> = {
  type: STUDIO_COMMAND_TYPE,
  input: StudioCommandInputSchema,
  totalSteps: () => 1,
  stepName: (input) => input.tool,
  // proc_execute's longest run is 40 s; connector calls at most 135 s.
  stepTimeoutMs: 150_000,
  async step(ctx) {
    await ctx.log('info', `Studio command: ${ctx.input.command.slice(0, 500)}`);
    const result = await ctx.callTool(ctx.input.tool, ctx.input.input);
    await ctx.log('info', `${ctx.input.tool} answered`);
    return { name: ctx.input.tool, result, last: true, effects: effectsOf(ctx.input, ctx.execution, result) };
  },
};
