import { z } from 'zod';
import type { Effect } from '../../schemas/documents/execution';
import { errors, isAppError } from '../../schemas/errors';
import { runAsPrincipal } from './execution-steps';
import type { EffectUndoer, UndoContext } from './step-runners';

/**
 * The `db_rows` effect: rows a step inserted into the agent's private database (`db_insert`), and
 * its undoer, which deletes them again by the primary keys `db_insert` reported (`createdKeys`).
 * The delete runs as the agent's own role in its own schema, one parameterised statement per key in
 * one transaction (`AgentDatabase.deleteByKeys`): the same isolation as the `db_*` tools.
 */

/** Undo data of a `db_rows` effect. */
export const DbRowsUndoSchema = z.object({
  /** The agent whose database holds the rows (the execution's owner). */
  agentId: z.string().min(1),
  table: z.string().min(1).max(128),
  /** The primary key of each inserted row, `{column: value}`. */
  keys: z.array(z.record(z.string(), z.json())).min(1).max(1000),
});
export type DbRowsUndo = z.infer<typeof DbRowsUndoSchema>;

const CreatedKeysSchema = z.object({
  createdKeys: z.array(z.record(z.string(), z.json())).nullable().optional(),
});

/**
 * The effect of a `db_insert` a step made as `agentId` into `table`, from the tool's result. A table
 * without a primary key reports no `createdKeys`: the effect is then recorded without undo data
 * (a rollback reports it as not undone).
 */
export function dbRowsEffect(
  agentId: string,
  table: string,
  result: unknown,
): Omit<Effect, 'undoneAt'> | null {
  const parsed = CreatedKeysSchema.safeParse(result);
  if (!parsed.success) return null;
  const keys = parsed.data.createdKeys;
  const target = `${table}${keys ? ` (${keys.length} row${keys.length === 1 ? '' : 's'})` : ''}`;
  if (!keys || keys.length === 0) return { kind: 'db_rows', target };
  return { kind: 'db_rows', target, undo: { agentId, table, keys } satisfies DbRowsUndo };
}

const describeKey = (key: Record<string, unknown>) => JSON.stringify(key).slice(0, 200);

export const dbRowsUndoer: EffectUndoer = {
  kind: 'db_rows',
  async undo(effect, ctx: UndoContext) {
    const parsed = DbRowsUndoSchema.safeParse(effect.undo);
    if (!parsed.success) throw errors.validation('the recorded undo data is not usable');
    const { agentId, table, keys } = parsed.data;
    // Only the execution's own agent's database, whatever the undo data says.
    if (agentId !== runAsPrincipal(ctx.execution).agentId) {
      throw errors.forbidden("the rows are not in the execution owner's database");
    }
    const databases = ctx.services.privateDatabases;
    if (!databases) throw errors.unavailable('the private databases are not available on this node');
    let outcome: { deleted: number; missing: Array<Record<string, unknown>> };
    try {
      outcome = await databases.forAgent(agentId).deleteByKeys(table, keys, { signal: ctx.signal });
    } catch (err) {
      if (isAppError(err) && err.details.sqlstate === '42P01') {
        throw errors.notFound(`the table "${table}" no longer exists`);
      }
      throw err;
    }
    if (outcome.missing.length > 0) {
      const gone = outcome.missing.length;
      throw errors.conflict(
        `${gone} of ${keys.length} row${keys.length === 1 ? '' : 's'} already gone (${outcome.missing
          .slice(0, 3)
          .map(describeKey)
          .join(', ')}${gone > 3 ? ', …' : ''}); ${outcome.deleted} deleted`,
      );
    }
  },
};
