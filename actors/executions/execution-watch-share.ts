import { Observable, Subject, type Subscription } from 'rxjs';
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
 * nothing falls in between), then gets its own snapshot (`snapshotOf`). The watch ends with its
 * last subscriber, and ends every subscriber when it ends (`done`, an error, its deadline).
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
      const local = entry.events.subscribe(subscriber);
      if (!existing) {
        this.shared.set(executionId, entry);
        entry.upstream = this.open(executionId, auth).subscribe({
          next: (event) => entry.events.next(event),
          error: (err: unknown) => {
            this.forget(executionId, entry);
            entry.events.error(err);
          },
          complete: () => {
            this.forget(executionId, entry);
            entry.events.complete();
          },
        });
      } else {
        this.snapshotOf(executionId, auth).then(
          (events) => {
            for (const event of events) {
              if (subscriber.closed) return;
              subscriber.next(event);
              if (event.type === 'done') subscriber.complete();
            }
          },
          (err: unknown) => subscriber.error(err),
        );
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

  private forget(executionId: string, entry: Shared): void {
    if (this.shared.get(executionId) === entry) this.shared.delete(executionId);
  }
}
