import { z } from 'zod';
import { sleep } from '../../src/kernel/sleep';
import { EffectKindSchema } from '../../schemas/documents/execution';
import { AppError, errors } from '../../schemas/errors';
import { MemKeySchema } from '../../schemas/tools/mem';
import { memNamespace } from '../tools/mem/mem.tools';
import { dbRowsEffect } from './db-rows-undoer';
import { runAsPrincipal } from './execution-steps';
import type { StepContext, StepRunner } from './step-runners';

/**
 * `DEMO_STEPS`: a built-in execution type for demos and tests, whose steps are given in the
 * input. It exercises every part of the machinery: steps that take time (and can be paused or
 * stopped between them), steps with undoable effects (`mem_set` through the tool router, a file
 * write through the file store), an effect of a kind nobody can undo, and failures.
 *
 * | op | does | effect |
 * |---|---|---|
 * | `sleep {ms}` | waits (abortable) | none |
 * | `incr {key}` | adds 1 to the cache counter `executions:demo:<execution id>:<key>` (1 day) | none |
 * | `mem_set {key, value}` | `mem_set` through the router as the execution's owner | `mem_set` (previous value) |
 * | `fs_write {path, content}` | writes a file in the execution's account and workspace | `file` (versions) |
 * | `effect {kind, target}` | records an effect without undo data | `kind` |
 * | `fail {times, code, message}` | fails its first `times` attempts (default 1) | none |
 * | `db_insert {table, data}` | `db_insert` through the router as the execution's owner | `db_rows` (the created keys) |
 * | `hang {times}` | its first `times` attempts (default 1) wait until aborted (a node that dies mid-step) | none |
 *
 * `delayMs` (default 0) is waited before each step's op, so a run can be paused in the middle.
 */

const Name = z.string().min(1).max(200).optional();

export const DemoStepSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('sleep'), name: Name, ms: z.number().int().min(0).max(60_000) }),
  z.object({ op: z.literal('incr'), name: Name, key: MemKeySchema }),
  z.object({ op: z.literal('mem_set'), name: Name, key: MemKeySchema, value: z.unknown() }),
  z.object({
    op: z.literal('fs_write'),
    name: Name,
    path: z.string().min(1).max(512),
    content: z.string().max(65_536),
  }),
  z.object({
    op: z.literal('effect'),
    name: Name,
    kind: EffectKindSchema,
    target: z.string().min(1).max(600),
  }),
  z.object({
    op: z.literal('fail'),
    name: Name,
    times: z.number().int().min(1).max(1000).default(1),
    code: z.enum(['INTERNAL_ERROR', 'UNAVAILABLE', 'CONFLICT', 'VALIDATION_ERROR']).default('UNAVAILABLE'),
    message: z.string().max(500).default('Demo failure'),
  }),
  z.object({
    op: z.literal('db_insert'),
    name: Name,
    table: z.string().min(1).max(63),
    data: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).max(1000)]),
  }),
  z.object({ op: z.literal('hang'), name: Name, times: z.number().int().min(1).max(1000).default(1) }),
]);
export type DemoStep = z.infer<typeof DemoStepSchema>;

export const DemoStepsInputSchema = z.object({
  steps: z.array(DemoStepSchema).min(1).max(100),
  delayMs: z.number().int().min(0).max(60_000).default(0),
});
export type DemoStepsInput = z.infer<typeof DemoStepsInputSchema>;

/** Cache key of a demo `incr` counter (tests read it). */
export const demoCounterKey = (executionId: string, key: string) => `executions:demo:${executionId}:${key}`;

/** Waits for the signal only (no timer: a hung step keeps nothing alive). */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

async function runOp(step: DemoStep, ctx: StepContext<DemoStepsInput>) {
  const { services, execution } = ctx;
  switch (step.op) {
    case 'sleep':
      await sleep(step.ms, ctx.signal);
      return {};
    case 'incr':
      ctx.signal.throwIfAborted();
      await services.cache.incr(demoCounterKey(ctx.executionId, step.key), 1, { ttlMs: 86_400_000 });
      return {};
    case 'mem_set': {
      const { agentId } = runAsPrincipal(execution);
      const memory = services.cache.namespace(memNamespace(agentId));
      const [previous, previousTtlMs] = await Promise.all([memory.get(step.key), memory.ttl(step.key)]);
      await ctx.callTool('mem_set', { key: step.key, value: step.value });
      const undo = { agentId, key: step.key, written: JSON.stringify(step.value), previous, previousTtlMs };
      return { effects: [{ kind: 'mem_set', target: step.key, undo }] };
    }
    case 'fs_write': {
      ctx.signal.throwIfAborted();
      const scope = { accountId: execution.accountId, workspaceId: execution.workspaceId };
      const written = await services.files.write(scope, { path: step.path, content: step.content });
      return {
        effects: [{ kind: 'file', target: written.entry.path, undo: { scope, changes: written.changes } }],
      };
    }
    case 'effect':
      return { effects: [{ kind: step.kind, target: step.target }] };
    case 'db_insert': {
      const { agentId } = runAsPrincipal(execution);
      const result = await ctx.callTool('db_insert', { table: step.table, data: step.data });
      const effect = dbRowsEffect(agentId, step.table, result);
      return { effects: effect ? [effect] : [] };
    }
    case 'fail':
      if (ctx.attempt <= step.times) throw new AppError(step.code, step.message, {}, { retryable: false });
      return {};
    case 'hang':
      if (ctx.attempt <= step.times) await untilAborted(ctx.signal);
      return {};
  }
}

export const demoStepsRunner: StepRunner<DemoStepsInput> = {
  type: 'DEMO_STEPS',
  input: DemoStepsInputSchema,
  totalSteps: (input) => input.steps.length,
  stepName: (input, index) => input.steps[index]?.name ?? `${input.steps[index]?.op ?? 'step'} ${index + 1}`,
  stepTimeoutMs: 120_000,
  async step(ctx) {
    const step = ctx.input.steps[ctx.index];
    if (!step) throw errors.internal(`DEMO_STEPS has no step ${ctx.index + 1}`);
    if (ctx.input.delayMs > 0) await sleep(ctx.input.delayMs, ctx.signal);
    const { effects = [] } = await runOp(step, ctx);
    return { effects, output: { op: step.op } };
  },
};
