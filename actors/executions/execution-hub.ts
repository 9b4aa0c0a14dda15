import { Observable, Subject } from 'rxjs';
import type { ExecutionStatus } from '../../schemas/documents/execution';
import {
  EXECUTION_EVENT_BROADCAST,
  EXECUTION_EVENTS_BROADCAST,
  ExecutionEventBroadcastSchema,
  type ExecutionEvent,
  type ExecutionEventsBroadcast,
} from '../../schemas/messages/executions';
import type { ActorSystemApi } from '../../src/kernel';
import type { Logger } from '../../src/logging/logger';

/** Most executions in one `execution.events` broadcast (a few KB each). */
const MAX_ITEMS_PER_BROADCAST = 100;

interface Pending {
  executionId: string;
  events: ExecutionEvent[];
  sent: () => void;
}

/**
 * Calls `listener` with the id of each execution whose events any node broadcasts, and its item
 * (`{executionId, events}`, not parsed: most listeners want few executions, and every node hears
 * every broadcast, so nothing here is parsed beyond the ids). Both forms are heard:
 * `execution.events` (several executions per broadcast) and the single `execution.event` of a node
 * of an earlier version. With `wants`, a node that wants none of the executions a broadcast is
 * about does not read it at all (the kernel's keyed broadcasts; `listener` still checks its own
 * ids, since a broadcast read carries the other executions too). Returns the unsubscribe.
 */
export function onExecutionEvents(
  system: Pick<ActorSystemApi, 'onBroadcast'>,
  listener: (executionId: string, item: unknown) => void,
  wants?: (executionId: string) => boolean,
): () => void {
  const receive = (item: unknown) => {
    const id = (item as { executionId?: unknown } | null)?.executionId;
    if (typeof id === 'string') listener(id, item);
  };
  const offs = [
    system.onBroadcast(EXECUTION_EVENT_BROADCAST, receive),
    system.onBroadcast(
      EXECUTION_EVENTS_BROADCAST,
      (body) => {
        const items = (body as { items?: unknown } | null)?.items;
        if (Array.isArray(items)) for (const item of items) receive(item);
      },
      wants ? { wants } : undefined,
    ),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * The live events of executions on this node: one rxjs Subject per watched execution, fed by the
 * execution-event broadcasts (`onExecutionEvents`), so that a watcher gets the events of an
 * execution whichever node runs its steps (the `execution.watch` message may land on any worker).
 * Events are published by the node that writes the change (those of one turn in one broadcast) and
 * delivered on every node that has a watcher; nodes without one drop them at once.
 */
export class ExecutionHub {
  private readonly subjects = new Map<string, Subject<ExecutionEvent>>();
  private readonly off: () => void;
  /** Events published in this turn, sent together at its end (`flush`). */
  private pending: Pending[] = [];

  constructor(
    private readonly system: Pick<ActorSystemApi, 'broadcast' | 'onBroadcast'>,
    private readonly logger: Logger,
  ) {
    const watched = (id: string) => this.subjects.has(id);
    this.off = onExecutionEvents(
      system,
      (id, item) => {
        if (!watched(id)) return; // nobody watches it here
        const parsed = ExecutionEventBroadcastSchema.safeParse(item);
        if (parsed.success) this.deliver(id, parsed.data.events);
      },
      // A broadcast about executions nobody watches here is not even read (most of them, under a
      // burst of streams answered at once: their events go to their own request).
      watched,
    );
  }

  /**
   * Sends events of one execution to its watchers on every node; resolves once they are on their
   * way. The events published in one turn of this node leave together, one broadcast (of at most
   * MAX_ITEMS_PER_BROADCAST executions) instead of one each. Never rejects.
   */
  publish(executionId: string, events: ExecutionEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((sent) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ executionId, events, sent });
    });
  }

  private flush(): void {
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += MAX_ITEMS_PER_BROADCAST) {
      const part = all.slice(i, i + MAX_ITEMS_PER_BROADCAST);
      const items = part.map(({ executionId, events }) => ({ executionId, events }));
      const body: ExecutionEventsBroadcast = { items };
      this.system
        .broadcast(EXECUTION_EVENTS_BROADCAST, body, { keys: items.map((item) => item.executionId) })
        .catch((err: unknown) =>
          this.logger.warn({ err, executions: items.length }, 'execution events not published'),
        )
        .finally(() => part.forEach((p) => p.sent()));
    }
  }

  /** The live events of one execution on this node; completes after its `done` event. */
  watch(executionId: string): Observable<ExecutionEvent> {
    return new Observable<ExecutionEvent>((subscriber) => {
      let subject = this.subjects.get(executionId);
      if (!subject) {
        subject = new Subject<ExecutionEvent>();
        this.subjects.set(executionId, subject);
      }
      const own = subject;
      const sub = own.subscribe(subscriber);
      return () => {
        sub.unsubscribe();
        if (!own.observed && this.subjects.get(executionId) === own) this.subjects.delete(executionId);
      };
    });
  }

  /** Ends the streams of an execution on this node: `error`, then `done` (panic). */
  end(executionId: string, error: { error: string; code: string }, status: ExecutionStatus): void {
    this.deliver(executionId, [
      { type: 'error', executionId, ...error },
      { type: 'done', executionId, status },
    ]);
  }

  /** Executions watched on this node. */
  watched(): number {
    return this.subjects.size;
  }

  close(): void {
    this.off();
    for (const subject of this.subjects.values()) subject.complete();
    this.subjects.clear();
  }

  private deliver(executionId: string, events: ExecutionEvent[]): void {
    const subject = this.subjects.get(executionId);
    if (!subject) return;
    for (const event of events) {
      subject.next(event);
      if (event.type === 'done') {
        this.subjects.delete(executionId);
        subject.complete();
        return;
      }
    }
  }
}
