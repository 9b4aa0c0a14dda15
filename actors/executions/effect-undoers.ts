import { z } from 'zod';
import { FileChangeSchema, FileScopeSchema } from '../../schemas/documents/file';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import { errors, isAppError } from '../../schemas/errors';
import type { RollbackReport } from '../../schemas/http/executions';
import { MEM_LIMITS } from '../../schemas/tools/mem';
import { memNamespace } from '../tools/mem/mem.tools';
import { dbRowsUndoer } from './db-rows-undoer';
import type { EffectUndoer, EffectUndoers, UndoContext } from './step-runners';

/**
 * Undoers of the effect kinds known today (docs/executions.md, "Rollback"): `file` (file store
 * changes, restored to their previous versions), `mem_set` (a memory-cache key put back to its
 * previous value) and `db_rows` (db-rows-undoer.ts). Other domains register theirs (`memory`, …) on
 * `services.executions.undoers`; an effect of a kind without an undoer is reported in `notUndone`.
 */

/** Undo data of a `file` effect: the scope and the changes a `FileStore` operation returned. */
export const FileUndoSchema = z.object({ scope: FileScopeSchema, changes: z.array(FileChangeSchema).min(1) });

/** Undo data of a `mem_set` effect (the agent's namespace, what was there before, what was written). */
export const MemSetUndoSchema = z.object({
  agentId: z.string().min(1),
  key: z.string().min(1),
  /** The JSON text written by the step: if the key holds something else now, it is not undone. */
  written: z.string(),
  /** The JSON text before the step; null = the key did not exist. */
  previous: z.string().nullable(),
  /** TTL left on the previous value, in ms (null: none or unknown). */
  previousTtlMs: z.number().int().positive().nullable(),
});

function undoData<S extends z.ZodType>(schema: S, undo: unknown): z.output<S> {
  const parsed = schema.safeParse(undo);
  if (!parsed.success) throw errors.validation('the recorded undo data is not usable');
  return parsed.data;
}

/**
 * Restores each changed path to its previous version, newest change first. A path changed by
 * several effects of one execution is restored several times in one rollback: each restore makes
 * a new version, which the next (older) effect must expect, so the versions this rollback reached
 * are kept in `ctx.scratch`. A path that a later rollback put back in the state this effect left
 * (same stored bytes and visibility) counts as unchanged; a path changed by anyone else since is
 * a CONFLICT (not undone).
 */
export const fileUndoer: EffectUndoer = {
  kind: 'file',
  async undo(effect, ctx: UndoContext) {
    const { scope, changes } = undoData(FileUndoSchema, effect.undo);
    const files = ctx.services.files;
    const keyOf = (path: string) => `file:${JSON.stringify(scope)}:${path}`;
    for (const change of [...changes].reverse()) {
      const reached = ctx.scratch.get(keyOf(change.path));
      const result = await files.restoreVersion(scope, {
        path: change.path,
        version: change.previousVersion,
        expectedVersion: typeof reached === 'number' ? reached : change.version,
        acceptRestoredState: true,
      });
      for (const made of result.changes) ctx.scratch.set(keyOf(made.path), made.version);
    }
  },
};

export const memSetUndoer: EffectUndoer = {
  kind: 'mem_set',
  async undo(effect, ctx: UndoContext) {
    const u = undoData(MemSetUndoSchema, effect.undo);
    const memory = ctx.services.cache.namespace(memNamespace(u.agentId));
    const now = await memory.get(u.key);
    if (now === u.previous) return; // already as it was
    if (now !== u.written) throw errors.conflict('the key was changed after the step wrote it');
    if (u.previous === null) await memory.delete(u.key);
    else await memory.set(u.key, u.previous, { ttlMs: u.previousTtlMs ?? MEM_LIMITS.defaultTtlSec * 1000 });
  },
};

export function registerBuiltInUndoers(undoers: EffectUndoers): void {
  undoers.register(fileUndoer).register(memSetUndoer).register(dbRowsUndoer);
}

/**
 * Undoes the effects of an execution not undone yet, newest first (steps in reverse order, each
 * step's effects in reverse order). Every such effect ends in exactly one list of the report.
 * `undone` also lists the (step, effect) positions to mark.
 */
export async function rollbackEffects(
  doc: ExecutionDocument,
  undoers: EffectUndoers,
  ctx: Omit<UndoContext, 'execution' | 'scratch'>,
): Promise<{ report: RollbackReport; undone: Array<[number, number]> }> {
  const report: RollbackReport = { undone: [], notUndone: [] };
  const undone: Array<[number, number]> = [];
  const scratch = new Map<string, unknown>();
  for (const step of [...doc.steps].reverse()) {
    for (let k = step.effects.length - 1; k >= 0; k--) {
      const effect = step.effects[k]!;
      if (effect.undoneAt) continue;
      const ref = { step: step.index, kind: effect.kind, target: effect.target };
      const undoer = undoers.get(effect.kind);
      let reason: string | undefined;
      if (!undoer) reason = `no undoer for effect kind "${effect.kind}"`;
      else if (!effect.undo) reason = 'no undo data was recorded for this effect';
      else if (ctx.signal.aborted) reason = 'the rollback was stopped';
      else {
        try {
          await undoer.undo(effect, { ...ctx, execution: doc, scratch });
        } catch (err) {
          reason = isAppError(err) && err.code !== 'INTERNAL_ERROR' ? err.message : 'the undo failed';
        }
      }
      if (reason === undefined) {
        report.undone.push(ref);
        undone.push([step.index, k]);
      } else report.notUndone.push({ effect: ref, reason });
    }
  }
  return { report, undone };
}
