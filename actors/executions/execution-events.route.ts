import { Observable } from 'rxjs';
import { isExecutionId } from './executions.repo';
import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import type { ExecutionEvent } from '../../schemas/messages/executions';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { writeSse } from '../../src/http/sse';
import { isFinal } from './execution-machine';
import { executionSummary } from './execution-views';
import { SharedWatches } from './execution-watch-share';
import { accountCaller, executionsOf } from './executions-http';
import type { ExecutionsRouteServices } from './executions-http';

/** The log position each event sent leaves the client at (its SSE id). */
type Positions = WeakMap<ExecutionEvent, number>;

/** Longest one events stream stays open; the client reconnects with Last-Event-ID. */
const EVENTS_STREAM_MS = 30 * 60_000;

/**
 * The events of one execution after log line `from`: the persisted log lines after it
 * (`logs.after`), then the live `execution.watch` (its first event is the current state), without
 * the lines already sent. The watch is subscribed first, so no line falls between the two.
 */
function eventsAfter(
  deps: ResolvedAppDeps<ExecutionsRouteServices>,
  watches: SharedWatches,
  auth: Principal,
  executionId: string,
  from: number,
  positions: Positions,
): Observable<ExecutionEvent> {
  return new Observable<ExecutionEvent>((sub) => {
    let seq = from;
    let replayed = false;
    let completed = false;
    const buffer: ExecutionEvent[] = [];
    const emit = (event: ExecutionEvent) => {
      if (event.type === 'log') {
        if (event.log.seq <= seq) return;
        seq = event.log.seq;
      }
      positions.set(event, seq);
      sub.next(event);
    };
    const watch = watches.watch(executionId, auth).subscribe({
      next: (event) => (replayed ? emit(event) : buffer.push(event)),
      error: (err: unknown) => sub.error(err),
      complete: () => (replayed ? sub.complete() : (completed = true)),
    });
    executionsOf(deps)
      .logs.after(executionId, from)
      .then(
        (logs) => {
          for (const log of logs) emit({ type: 'log', executionId, log });
          replayed = true;
          for (const event of buffer.splice(0)) emit(event);
          if (completed) sub.complete();
        },
        (err: unknown) => sub.error(err),
      );
    return () => watch.unsubscribe();
  });
}

/**
 * `GET /api/executions/{id}/events` (SB, docs/studio.md): the execution's events as SSE, for any
 * number of subscribers. Each event's id is the sequence number of the last log line sent; a
 * client reconnecting with `Last-Event-ID: n` gets the log lines after `n` from the persisted log,
 * then the live events. Another account's execution is 404.
 */
export const executionEventsRoute: RouteModule<ExecutionsRouteServices> = (router, deps) => {
  // One watch per execution on this node, whatever the number of its subscribers here.
  const watches = new SharedWatches(
    (executionId, auth) =>
      deps.system.stream<ExecutionEvent>(
        `execution:${executionId}`,
        'execution.watch',
        {},
        {
          auth,
          timeoutMs: EVENTS_STREAM_MS,
        },
      ),
    async (executionId, auth) => {
      const doc = await executionsOf(deps).queries.get(auth.accountId ?? '', executionId);
      const state: ExecutionEvent = { type: 'execution', execution: executionSummary(doc) };
      return isFinal(doc.status) || doc.hold
        ? [state, { type: 'done', executionId, status: doc.status }]
        : [state];
    },
  );
  router.get('/api/executions/:id/events', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const id = String(req.params.id);
    if (!isExecutionId(id)) throw errors.notFound('Execution not found', { id });
    await executionsOf(deps).queries.get(caller.accountId, id); // 404 before the stream opens
    const positions: Positions = new WeakMap();
    const resumeFrom = (lastEventId: string) => {
      const n = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
      return eventsAfter(deps, watches, caller, id, n, positions);
    };
    await writeSse(req, res, eventsAfter(deps, watches, caller, id, 0, positions), {
      eventOf: (event) => event.type,
      idOf: (event) => String(positions.get(event) ?? 0),
      resumeFrom,
      // The live events are the shared watch's objects, the same for every subscriber here.
      sharedItems: true,
    });
  });
};
