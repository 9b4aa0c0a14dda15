import { randomBytes } from 'node:crypto';
import { PrincipalSchema } from '../../schemas/auth';
import {
  ACTIVE_STATUSES,
  type ExecutionDocument,
  type ExecutionLogDocument,
} from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import type { PanicResponse, PanicStatusResponse } from '../../schemas/http/executions';
import {
  PanicLiftMessageSchema,
  PanicStartMessageSchema,
  PanicStatusMessageSchema,
} from '../../schemas/messages/executions';
import { panicFlagKey, WORKSPACE_PANIC_BROADCAST } from '../../schemas/messages/tools';
import { defineActor, type ActorContext } from '../../src/kernel/actor-definition';
import type { ExecutionsService } from './executions.service';

/** Executions cancelled per write (and ids per broadcast). */
const CHUNK = 1000;

const chunks = <T>(items: T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** When a lockdown began, from the flag's value (`{at}`); null when unreadable. */
function sinceOf(raw: string): string | null {
  try {
    const at = (JSON.parse(raw) as { at?: unknown }).at;
    return typeof at === 'string' ? at : null;
  } catch {
    return null;
  }
}

type Stopped = Pick<ExecutionDocument, '_id' | 'accountId' | 'stopped' | 'progress'>;

/**
 * `panic:<workspace id>`: the panic button of a workspace (docs/executions.md, "Panic"), one press
 * at a time per workspace. `panic.start` locks the workspace down (cache flag
 * `panic:workspace:<id>`, no TTL: until `panic.lift`; not for a session-scoped panic), cancels
 * its QUEUED, RUNNING and PAUSED executions with bulk conditional writes (a log line each), stops
 * their steps in flight and the workspace's tool calls on every node (`workspace.panic`
 * broadcast; this node first, before answering), and notifies the accounts concerned.
 */
export function panicActor(svc: ExecutionsService) {
  const { services, store, notifications } = svc;
  const repo = store.repo;

  async function member(ctx: ActorContext<undefined>) {
    const parsed = PrincipalSchema.safeParse(ctx.auth);
    if (!parsed.success) throw errors.unauthorized();
    const accountId = parsed.data.accountId;
    if (!accountId)
      throw errors.forbidden('Panic needs an operator account: use an account session or token');
    if (!(await svc.workspaces.workspaceOwnedBy(accountId, ctx.id))) {
      throw errors.notFound('Workspace not found', { workspaceId: ctx.id });
    }
    return { accountId, principal: parsed.data };
  }

  async function cancelAll(
    workspaceId: string,
    sessionId: string | undefined,
    now: Date,
  ): Promise<Stopped[]> {
    const panicId = randomBytes(9).toString('hex');
    const active = { status: { $in: [...ACTIVE_STATUSES] }, hold: { $exists: false } };
    const candidates = await repo.raw
      .find({ workspaceId, ...active, ...(sessionId ? { sessionId } : {}) }, { projection: { _id: 1 } })
      .toArray();
    const stopped: Stopped[] = [];
    for (const ids of chunks(candidates.map((c) => c._id))) {
      // Conditional on the status again: one that finished meanwhile is left alone. A pipeline
      // update, so that each document records the log sequence number it reserved for its line
      // (another writer may move `logSeq` right after).
      await repo.raw.updateMany({ _id: { $in: ids }, ...active }, [
        {
          $set: {
            status: 'CANCELLED',
            stopped: { action: 'panic', at: now, panicId, logSeq: { $add: ['$logSeq', 1] } },
            endedAt: now,
            updatedAt: now,
            version: { $add: ['$version', 1] },
            logSeq: { $add: ['$logSeq', 1] },
          },
        },
      ]);
      const done = await repo.raw
        .find(
          { _id: { $in: ids }, 'stopped.panicId': panicId },
          { projection: { _id: 1, accountId: 1, stopped: 1, progress: 1 } },
        )
        .toArray();
      stopped.push(...(done as Stopped[]));
      const lines: ExecutionLogDocument[] = done.map((d) => ({
        _id: `${d._id}:${d.stopped!.logSeq!}`,
        executionId: d._id,
        seq: d.stopped!.logSeq!,
        level: 'warn',
        message: `Cancelled by panic before step ${d.progress.completedSteps + 1}`,
        at: now,
      }));
      await store.logs.insertMany(lines);
    }
    return stopped;
  }

  return defineActor({
    kind: 'panic',
    messages: {
      'panic.start': PanicStartMessageSchema,
      'panic.lift': PanicLiftMessageSchema,
      'panic.status': PanicStatusMessageSchema,
    },
    handlers: {
      'panic.start': async (ctx, { sessionId }): Promise<PanicResponse> => {
        const { accountId } = await member(ctx);
        const workspaceId = ctx.id;
        const now = new Date();
        const flag = panicFlagKey(workspaceId);
        // The lockdown first: no tool call of the workspace starts while executions are cancelled.
        if (!sessionId) await services.cache.set(flag, JSON.stringify({ at: now.toISOString() }));
        const stopped = await cancelAll(workspaceId, sessionId, now);
        const ids = stopped.map((s) => s._id);
        const batches = ids.length > 0 ? chunks(ids) : [[]];
        for (const [n, executionIds] of batches.entries()) {
          const event = {
            workspaceId,
            ...(n === 0 && !sessionId ? { active: true } : {}),
            ...(sessionId ? { sessionId } : {}),
            executionIds,
            at: now.getTime(),
          };
          svc.onPanic(event); // this node at once; the others through the broadcast
          await services.system.broadcast(WORKSPACE_PANIC_BROADCAST, event);
        }
        const lockdown = !sessionId || (await services.cache.get(flag)) !== null;
        const where = sessionId
          ? `session ${sessionId} of workspace ${workspaceId}`
          : `workspace ${workspaceId}`;
        const body = lockdown
          ? `${where}: tool calls are refused until the lockdown is lifted (DELETE /api/panic)`
          : where;
        const accounts = new Set([accountId, ...stopped.map((s) => s.accountId)]);
        await notifications
          .createMany(
            [...accounts].map((acc) => ({
              accountId: acc,
              type: 'panic' as const,
              title: `Panic: ${stopped.length} execution(s) stopped`,
              body,
              workspaceId,
            })),
            now,
          )
          .catch((err: unknown) => ctx.logger.warn({ err }, 'panic notifications not created'));
        ctx.logger.warn({ workspaceId, stopped: stopped.length, sessionId }, 'panic');
        return {
          stopped: stopped.length,
          executions: ids.map((id) => ({ id, status: 'CANCELLED' as const })),
          workspaceId,
          sessionId: sessionId ?? null,
          lockdown,
        };
      },

      'panic.lift': async (ctx): Promise<PanicStatusResponse> => {
        const { principal, accountId } = await member(ctx);
        if (principal.subjectType !== 'account')
          throw errors.forbidden('Only the operator account may lift a lockdown');
        await services.cache.delete(panicFlagKey(ctx.id));
        await services.system.broadcast(WORKSPACE_PANIC_BROADCAST, { workspaceId: ctx.id, active: false });
        await notifications
          .create(accountId, {
            type: 'panic',
            title: 'Panic lockdown lifted',
            body: `workspace ${ctx.id}`,
            workspaceId: ctx.id,
          })
          .catch((err: unknown) => ctx.logger.warn({ err }, 'panic notification not created'));
        return { workspaceId: ctx.id, lockdown: false, since: null };
      },

      'panic.status': async (ctx): Promise<PanicStatusResponse> => {
        await member(ctx);
        const raw = await services.cache.get(panicFlagKey(ctx.id));
        const since = raw === null ? null : sinceOf(raw);
        return { workspaceId: ctx.id, lockdown: raw !== null, since };
      },
    },
  });
}
