import { Observable, Subject } from 'rxjs';
import type { ExecutionStatus } from '../../schemas/documents/execution';
import {
  EXECUTION_EVENT_BROADCAST,
  ExecutionEventBroadcastSchema,
  type ExecutionEvent,
} from '../../schemas/messages/executions';
import type { ActorSystemApi } from '../../src/kernel';
import type { Logger } from '../../src/logging/logger';

/**
 * The live events of executions on this node: one rxjs Subject per watched execution, fed by the
 * `execution.event` broadcast, so that a watcher gets the events of an execution whichever node
 * runs its steps (the `execution.watch` message may land on any worker). Events are published by
 * the node that writes the change (one broadcast per write) and delivered on every node that has a
 * watcher; nodes without one drop them at once.
 */
export class ExecutionHub {
  private readonly subjects = new Map<string, Subject<ExecutionEvent>>();
  private readonly off: () => void;

  constructor(
    private readonly system: Pick<ActorSystemApi, 'broadcast' | 'onBroadcast'>,
    private readonly logger: Logger,
  ) {
    this.off = system.onBroadcast(EXECUTION_EVENT_BROADCAST, (body) => {
      const id = (body as { executionId?: unknown } | null)?.executionId;
      if (typeof id !== 'string' || !this.subjects.has(id)) return; // nobody watches it here
      const parsed = ExecutionEventBroadcastSchema.safeParse(body);
      if (parsed.success) this.deliver(id, parsed.data.events);
    });
  }

  /** Sends events of one execution to its watchers on every node. Never rejects. */
  async publish(executionId: string, events: ExecutionEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      await this.system.broadcast(EXECUTION_EVENT_BROADCAST, { executionId, events });
    } catch (err) {
      this.logger.warn({ err, executionId }, 'execution events not published');
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
