import { Observable, Subject, type Subscriber, type Subscription } from 'rxjs';
import type { Principal } from '../../schemas/auth';
import type { ExecutionEvent } from '../../schemas/messages/executions';

/**
 * What a subscriber that joins a watch already open gets first, in place of the snapshot the
 * actor sends when it opens one: the execution's current state (`execution`), and `done` when it
 * is finished or on hold (the stream then ends, as the actor's would).
 */
export type SnapshotOf = (executionId: string, auth: Principal) => Promise<ExecutionEvent[]>;

interface Shared {
  readonly events: Subject<ExecutionEvent>;
  upstream?: Subscription;
  subscribers: number;
  /** The first `execution` event of the watch: the actor's snapshot, sent for the opener. */
  snapshot?: ExecutionEvent;
}

/**
 * One `execution.watch` per execution on this node, shared by every local subscriber of its
 * events (`GET /api/executions/{id}/events`). Without it each subscriber had its own watch: over
 * RabbitMQ every event crossed the broker once per subscriber (200 subscribers, 200 messages per
 * event, each parsed on its own), and each subscriber serialised its own copy. Shared, an event
 * crosses once and every subscriber gets the same object (the SSE writer serialises it once).
 *
 * The first subscriber opens the watch (`open`) and gets its events as the actor sends them, its
 * snapshot first. A later one joins the live events (subscribed before its snapshot is read, so
 * nothing falls in between), gets its own snapshot (`snapshotOf`), then the live events that came
 * meanwhile. The watch ends with its last subscriber, and ends every subscriber when it ends
 * (`done`, an error, its deadline).
 */
export class SharedWatches {
  private readonly shared = new Map<string, Shared>();

  constructor(
    private readonly open: (executionId: string, auth: Principal) => Observable<ExecutionEvent>,
    private readonly snapshotOf: SnapshotOf,
  ) {}

  /** Executions with a watch open here. */
  size(): number {
    return this.shared.size;
  }

  /**
   * The live events of one execution, as `execution.watch` gives them. `auth` opens the watch when
   * none is open: every caller must already be known to be allowed to see the execution.
   */
  watch(executionId: string, auth: Principal): Observable<ExecutionEvent> {
    return new Observable<ExecutionEvent>((subscriber) => {
      const existing = this.shared.get(executionId);
      const entry: Shared = existing ?? { events: new Subject<ExecutionEvent>(), subscribers: 0 };
      entry.subscribers += 1;
      const local = existing
        ? this.join(entry, executionId, auth, subscriber)
        : entry.events.subscribe(subscriber);
      if (!existing) {
        this.shared.set(executionId, entry);
        entry.upstream = this.open(executionId, auth).subscribe({
          next: (event) => {
            if (event.type === 'execution' && !entry.snapshot) entry.snapshot = event;
            entry.events.next(event);
          },
          error: (err: unknown) => {
            this.forget(executionId, entry);
            entry.events.error(err);
          },
          complete: () => {
            this.forget(executionId, entry);
            entry.events.complete();
          },
        });
      }
      return () => {
        local.unsubscribe();
        entry.subscribers -= 1;
        if (entry.subscribers === 0) {
          this.forget(executionId, entry);
          entry.upstream?.unsubscribe();
        }
      };
    });
  }

  /**
   * A subscriber joining an open watch: its own snapshot first, then the live events that came
   * since it joined (held meanwhile), without the snapshot the actor sent the opener (if it had not
   * passed yet: the subscriber's own is as fresh).
   */
  private join(
    entry: Shared,
    executionId: string,
    auth: Principal,
    subscriber: Subscriber<ExecutionEvent>,
  ): Subscription {
    const openerSnapshotPending = entry.snapshot === undefined;
    const held: ExecutionEvent[] = [];
    let ready = false;
    let completed = false;
    const local = entry.events.subscribe({
      next: (event) => {
        if (openerSnapshotPending && event === entry.snapshot) return;
        if (ready) subscriber.next(event);
        else held.push(event);
      },
      error: (err: unknown) => subscriber.error(err),
      complete: () => (ready ? subscriber.complete() : (completed = true)),
    });
    this.snapshotOf(executionId, auth).then(
      (events) => {
        for (const event of [...events, ...held.splice(0)]) {
          if (subscriber.closed) return;
          subscriber.next(event);
          if (event.type === 'done') return subscriber.complete();
        }
        ready = true;
        if (completed) subscriber.complete();
      },
      (err: unknown) => subscriber.error(err),
    );
    return local;
  }

  private forget(executionId: string, entry: Shared): void {
    if (this.shared.get(executionId) === entry) this.shared.delete(executionId);
  }
}
