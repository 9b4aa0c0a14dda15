import { randomBytes } from 'node:crypto';
import type { Collection } from 'mongodb';
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

export type Stopped = Pick<ExecutionDocument, '_id' | 'accountId' | 'stopped' | 'progress'>;
/** What the cancel of one execution is conditional on, and what its log line needs. */
export type PanicCandidate = Pick<ExecutionDocument, '_id' | 'accountId' | 'logSeq' | 'progress'>;

/** What panic cancels: QUEUED, RUNNING and every PAUSED one, holds (paused after they ended) included. */
const ACTIVE = { status: { $in: [...ACTIVE_STATUSES] } };
const isActive = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);

const CANDIDATE_FIELDS = { _id: 1, accountId: 1, logSeq: 1, progress: 1 } as const;

/** Rounds of conditional writes on what was read, before the rest is cancelled by a pipeline update. */
const CANCEL_ROUNDS = 3;

/** Candidates by what their write is conditional on: the log counter and the progress read. */
function byReadState(docs: PanicCandidate[]): PanicCandidate[][] {
  const groups = new Map<string, PanicCandidate[]>();
  for (const d of docs) {
    const key = `${d.logSeq}:${d.progress.completedSteps}`;
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  return [...groups.values()];
}

/**
 * Cancels these executions for one panic (those still active, holds included) and records in each
 * the sequence number of its log line. The writes are operator updates conditional on the state
 * read (status, log counter, progress), one per group of executions read in the same state, sent
 * as one bulk write: the sequence number each reserves is then known without reading it back. An
 * execution whose state moved in between is read and written again; after CANCEL_ROUNDS, what
 * still moves is cancelled by a pipeline update, which reserves the number whatever the counter
 * is. (The embedded document server runs a pipeline update over 1,000 documents several times
 * slower than operator updates: it was most of the panic's time.)
 */
export async function cancelForPanic(
  executions: Collection<ExecutionDocument>,
  read: PanicCandidate[],
  panicId: string,
  now: Date,
): Promise<Stopped[]> {
  const stopped: Stopped[] = [];
  const stop = (d: PanicCandidate): Stopped => ({
    _id: d._id,
    accountId: d.accountId,
    progress: d.progress,
    stopped: { action: 'panic', at: now, panicId, logSeq: d.logSeq + 1 },
  });
  let docs = read;
  for (let round = 0; round < CANCEL_ROUNDS; round++) {
    const result = await executions.bulkWrite(
      byReadState(docs).map((group) => {
        const { logSeq, progress } = group[0]!;
        return {
          updateMany: {
            filter: {
              _id: { $in: group.map((d) => d._id) },
              logSeq,
              'progress.completedSteps': progress.completedSteps,
              ...ACTIVE,
            },
            update: {
              $set: {
                status: 'CANCELLED' as const,
                stopped: { action: 'panic' as const, at: now, panicId, logSeq: logSeq + 1 },
                endedAt: now,
                updatedAt: now,
              },
              $inc: { version: 1, logSeq: 1 },
              $unset: { hold: '' },
            },
          },
        };
      }),
      { ordered: false },
    );
    if (result.modifiedCount === docs.length) return [...stopped, ...docs.map(stop)];
    // Some moved since they were read: read those this write did not cancel (fewer documents to
    // send than those it did), and go on with the ones still active, on their new state.
    const lost = (await executions
      .find(
        { _id: { $in: docs.map((d) => d._id) }, 'stopped.panicId': { $ne: panicId } },
        { projection: { ...CANDIDATE_FIELDS, status: 1 } },
      )
      .toArray()) as Array<PanicCandidate & Pick<ExecutionDocument, 'status'>>;
    const lostIds = new Set(lost.map((d) => d._id));
    stopped.push(...docs.filter((d) => !lostIds.has(d._id)).map(stop));
    docs = lost.filter((d) => isActive(d.status));
    if (docs.length === 0) return stopped;
  }
  const ids = docs.map((d) => d._id);
  await executions.updateMany({ _id: { $in: ids }, ...ACTIVE }, [
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
    { $unset: 'hold' },
  ]);
  const done = await executions
    .find(
      { _id: { $in: ids }, 'stopped.panicId': panicId },
      { projection: { _id: 1, accountId: 1, stopped: 1, progress: 1 } },
    )
    .toArray();
  return [...stopped, ...(done as Stopped[])];
}

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

  /**
   * The caller's right on the workspace for `action`. Pressing and lifting need the owner or an
   * admin; reading the lockdown state needs membership only: a plain member's work is refused
   * during a lockdown, and this is how it learns why.
   */
  async function member(ctx: ActorContext<undefined>, action: 'press' | 'lift' | 'read') {
    const parsed = PrincipalSchema.safeParse(ctx.auth);
    if (!parsed.success) throw errors.unauthorized();
    const accountId = parsed.data.accountId;
    if (!accountId)
      throw errors.forbidden('Panic needs an operator account: use an account session or token');
    const right = await svc.workspaces.panicRight(accountId, ctx.id);
    if (right === 'none') throw errors.notFound('Workspace not found', { workspaceId: ctx.id });
    if (right === 'member' && action !== 'read') {
      throw errors.forbidden(`Only the workspace's owner or an admin can ${action} panic`, {
        workspaceId: ctx.id,
      });
    }
    return { accountId, principal: parsed.data };
  }

  /**
   * Cancels the active executions of the workspace (or session), 1,000 per write. Right after
   * each write, `stopWork` stops the steps of those it cancelled (here and, by broadcast, on every
   * node), while their log lines are written: the sooner a step is aborted, the less of it runs.
   */
  async function cancelAll(
    workspaceId: string,
    sessionId: string | undefined,
    now: Date,
    stopWork: (executionIds: string[]) => Promise<void>,
  ): Promise<Stopped[]> {
    const panicId = randomBytes(9).toString('hex');
    const candidates = (await repo.raw
      .find({ workspaceId, ...ACTIVE, ...(sessionId ? { sessionId } : {}) }, { projection: CANDIDATE_FIELDS })
      .toArray()) as PanicCandidate[];
    const stopped: Stopped[] = [];
    for (const chunk of chunks(candidates)) {
      const done = await cancelForPanic(repo.raw, chunk, panicId, now);
      stopped.push(...done);
      const lines: ExecutionLogDocument[] = done.map((d) => ({
        _id: `${d._id}:${d.stopped!.logSeq!}`,
        executionId: d._id,
        seq: d.stopped!.logSeq!,
        level: 'warn',
        message: `Cancelled by panic before step ${d.progress.completedSteps + 1}`,
        at: now,
      }));
      await Promise.all([stopWork(done.map((d) => d._id)), store.logs.insertMany(lines)]);
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
        const { accountId } = await member(ctx, 'press');
        const workspaceId = ctx.id;
        const now = new Date();
        const flag = panicFlagKey(workspaceId);
        // The lockdown first: no tool call of the workspace starts while executions are cancelled.
        if (!sessionId) await services.cache.set(flag, JSON.stringify({ at: now.toISOString() }));
        let broadcasts = 0;
        const stopWork = async (executionIds: string[]) => {
          const first = broadcasts++ === 0;
          const event = {
            workspaceId,
            ...(first && !sessionId ? { active: true } : {}),
            ...(sessionId ? { sessionId } : {}),
            executionIds,
            at: now.getTime(),
          };
          svc.onPanic(event); // this node at once; the others through the broadcast
          await services.system.broadcast(WORKSPACE_PANIC_BROADCAST, event);
        };
        const stopped = await cancelAll(workspaceId, sessionId, now, stopWork);
        // Nothing to cancel: the other nodes still stop the workspace's tool calls (and the lockdown).
        if (broadcasts === 0) await stopWork([]);
        const ids = stopped.map((s) => s._id);
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
        const { principal, accountId } = await member(ctx, 'lift');
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
        await member(ctx, 'read');
        const raw = await services.cache.get(panicFlagKey(ctx.id));
        const since = raw === null ? null : sinceOf(raw);
        return { workspaceId: ctx.id, lockdown: raw !== null, since };
      },
    },
  });
}
