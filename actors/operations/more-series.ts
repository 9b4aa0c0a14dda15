import { Counter, Gauge, type Registry } from 'prom-client';
import type { TurnCounts } from '../../src/kernel';

/** One command queue's depth and consumers (the transport's `queueStats`). */
export interface QueueSeries {
  kind: string;
  messages: number;
  consumers: number;
}

/** How long queue depths are reused between scrapes, ms (each read is a broker call per kind). */
const QUEUE_TTL_MS = 10_000;

/** What the series of this file read at scrape time; each absent one leaves its series out. */
export interface MoreSources {
  /** Turns concluded on this node per hosted kind and outcome. */
  turnCounts?(): Record<string, TurnCounts>;
  /** Command queues of the cluster's kinds (cached by the caller: broker calls). */
  queues?(): Promise<QueueSeries[]>;
  /** SSE responses open on this node. */
  sseStreams?(): number;
  /** Cache reads that found a value or not. */
  cacheReads?(): { hits: number; misses: number } | undefined;
  /** Execution status changes written by this process, `FROM>TO` → count. */
  executionTransitions?(): ReadonlyMap<string, number>;
}

/**
 * Series beyond the request and tool histograms (docs/operations.md, "Metrics"): actor turns,
 * queues, SSE streams, cache reads, execution transitions. All read at scrape time from counters
 * the hot path bumps in place, so they cost nothing between scrapes. Labels are bounded: kinds,
 * fixed outcomes, statuses.
 */
export function registerMoreSeries(registry: Registry, sources: MoreSources): void {
  const registers = [registry];
  const { turnCounts, queues, sseStreams, cacheReads, executionTransitions } = sources;
  if (turnCounts) {
    new Counter({
      name: 'actor_turns_total',
      help: 'Actor turns concluded on this node by kind and outcome (ok, error, failed, dropped)',
      labelNames: ['kind', 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const [kind, counts] of Object.entries(turnCounts())) {
          for (const [outcome, n] of Object.entries(counts)) this.inc({ kind, outcome }, n);
        }
      },
    });
  }
  if (queues) {
    // Both gauges of a scrape, and every scrape within QUEUE_TTL_MS, share one round of calls.
    let cached: { at: number; value: Promise<QueueSeries[]> } | undefined;
    const read = () => {
      const now = Date.now();
      if (!cached || now - cached.at > QUEUE_TTL_MS) {
        const value = queues();
        cached = { at: now, value };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    };
    new Gauge({
      name: 'actor_queue_messages',
      help: 'Commands waiting in the queue of each actor kind (the whole cluster, from the broker)',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset();
        for (const q of await read().catch(() => [])) this.set({ kind: q.kind }, q.messages);
      },
    });
    new Gauge({
      name: 'actor_queue_consumers',
      help: 'Consumers of the queue of each actor kind (nodes serving it, from the broker)',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset();
        for (const q of await read().catch(() => [])) this.set({ kind: q.kind }, q.consumers);
      },
    });
  }
  if (sseStreams) {
    new Gauge({
      name: 'sse_streams_open',
      help: 'Server-sent event streams open on this node',
      registers,
      collect() {
        this.set(sseStreams());
      },
    });
  }
  if (cacheReads) {
    new Counter({
      name: 'cache_reads_total',
      help: 'Cache reads on this node by result (hit, miss)',
      labelNames: ['result'],
      registers,
      collect() {
        const reads = cacheReads();
        this.reset();
        if (!reads) return;
        this.inc({ result: 'hit' }, reads.hits);
        this.inc({ result: 'miss' }, reads.misses);
      },
    });
  }
  if (executionTransitions) {
    new Counter({
      name: 'execution_transitions_total',
      help: 'Execution status changes written by this process, by previous and new status',
      labelNames: ['from', 'to'],
      registers,
      collect() {
        this.reset();
        for (const [key, n] of executionTransitions()) {
          const [from, to] = key.split('>');
          this.inc({ from, to }, n);
        }
      },
    });
  }
}
