import { spread, type SseEvent } from './http-client';
import { postStream, type Target } from './raw-stream-client';

/** What 1,000 concurrent `POST /api/studio/intent/stream` gave. */
export interface IntentFigures {
  streams: number;
  message: string;
  /** From sending the request to the first event (`execution`), ms. */
  firstEventMs: ReturnType<typeof spread>;
  /** From sending the request to `done`, ms. */
  doneMs: ReturnType<typeof spread>;
  /** Wall time from the first request sent to the last stream ended, ms. */
  wallMs: number;
  /** Streams `execution, reply, done` with `done.status` COMPLETED. */
  completed: number;
  /** Every stream by its event sequence, e.g. `execution,reply,done:COMPLETED`. */
  sequences: Record<string, number>;
  errors: { non200: number; missingDone: number; outOfOrder: number; transport: number };
  /** A few failures, to explain them. */
  samples: string[];
}

/**
 * The documented order (docs/studio.md): `execution` first, then the pieces of a model's reply
 * (`reply` with `final: false`, LLM path only), then at most one `reply` (final) or `error`, then
 * `done` last, nothing after it. `types` names the pieces `reply-piece`.
 */
export function inDocumentedOrder(types: readonly string[]): boolean {
  if (types[0] !== 'execution' || types.at(-1) !== 'done') return false;
  const middle = types.slice(1, -1);
  let i = 0;
  while (middle[i] === 'reply-piece') i += 1;
  const rest = middle.slice(i);
  // Pieces are always followed by the final reply or an error.
  return (
    rest.length <= 1 && rest.length >= (i > 0 ? 1 : 0) && rest.every((t) => t === 'reply' || t === 'error')
  );
}

/** An event's name, `reply-piece` for a piece of a reply (`final: false`). */
const typeOf = (e: SseEvent) =>
  e.event === 'reply' && (e.data as { final?: boolean }).final === false ? 'reply-piece' : e.event;

/**
 * `streams` intent streams at once, one connection each (the pool is bounded to that many), with a
 * message the deterministic planner maps to a read-only command (no model, no tool call).
 */
export async function runIntentStreams(
  target: Target,
  token: string,
  streams: number,
  message: string,
  path = '/api/studio/intent/stream',
): Promise<IntentFigures> {
  const first: number[] = [];
  const done: number[] = [];
  const sequences: Record<string, number> = {};
  const errors = { non200: 0, missingDone: 0, outOfOrder: 0, transport: 0 };
  const samples: string[] = [];
  const sample = (line: string) => samples.length < 5 && samples.push(line);
  let completed = 0;
  const started = Date.now();

  await Promise.all(
    Array.from({ length: streams }, async (_, i) => {
      const sentAt = Date.now();
      const events: SseEvent[] = [];
      try {
        const res = await postStream(
          target,
          path,
          {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            accept: 'text/event-stream',
          },
          JSON.stringify({ message, sessionId: `bench-streams-${i}` }),
          120_000,
        );
        if (res.status !== 200) {
          errors.non200 += 1;
          sample(`HTTP ${res.status}: ${res.errorBody ?? ''}`);
          return;
        }
        events.push(...res.events);
      } catch (err) {
        errors.transport += 1;
        sample(`transport: ${(err as Error)?.message ?? String(err)}`);
        return;
      }
      const types = events.map(typeOf);
      const last = events.at(-1);
      const status = last?.event === 'done' ? (last.data as { status?: string }).status : undefined;
      // Pieces counted as one, so that streams of the same shape share a key.
      const shape = types.filter((t, k) => t !== 'reply-piece' || types[k - 1] !== 'reply-piece');
      const key = `${shape.join(',').replace('reply-piece', 'reply…')}${status ? `:${status}` : ''}`;
      sequences[key] = (sequences[key] ?? 0) + 1;
      if (events.length > 0) first.push(events[0]!.receivedAt - sentAt);
      if (last?.event !== 'done') {
        errors.missingDone += 1;
        sample(`no done: ${key}`);
        return;
      }
      done.push(last.receivedAt - sentAt);
      if (!inDocumentedOrder(types)) {
        errors.outOfOrder += 1;
        sample(`out of order: ${key}`);
        return;
      }
      if (key === 'execution,reply,done:COMPLETED') completed += 1;
    }),
  );

  return {
    streams,
    message,
    firstEventMs: spread(first),
    doneMs: spread(done),
    wallMs: Date.now() - started,
    completed,
    sequences,
    errors,
    samples,
  };
}
