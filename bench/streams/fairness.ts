import { runIntentStreams, type IntentFigures } from './intent-streams';
import { postStream, type Target } from './raw-stream-client';

/** One client's burst and another client's single stream sent just after it. */
export interface FairnessFigures {
  burst: IntentFigures;
  /** The other client's stream: from sending it to its first event and to `done`, ms. */
  single: { firstEventMs: number; doneMs: number; ok: boolean };
}

/**
 * Client A sends `streams` intent streams at once; client B (another account) sends one, just
 * after A's are all sent. Admission is fair when B's stream does not wait behind A's burst: its
 * first event comes about as soon as A's first ones, not after A's last.
 */
export async function runFairness(
  target: Target,
  tokenA: string,
  tokenB: string,
  streams: number,
  message: string,
): Promise<FairnessFigures> {
  const burst = runIntentStreams(target, tokenA, streams, message);
  // A's requests all start connecting in the same tick; B's goes right after them.
  await new Promise((r) => setImmediate(r));
  const sentAt = Date.now();
  let firstEventMs = Number.NaN;
  let doneMs = Number.NaN;
  let ok = false;
  try {
    const res = await postStream(
      target,
      '/api/studio/intent/stream',
      {
        'content-type': 'application/json',
        authorization: `Bearer ${tokenB}`,
        accept: 'text/event-stream',
      },
      JSON.stringify({ message, sessionId: 'bench-streams-fair' }),
      120_000,
    );
    for (const e of res.events) {
      if (Number.isNaN(firstEventMs)) firstEventMs = e.receivedAt - sentAt;
      if (e.event === 'done') {
        doneMs = e.receivedAt - sentAt;
        ok = (e.data as { status?: string }).status === 'COMPLETED';
      }
    }
  } catch {
    ok = false;
  }
  return { burst: await burst, single: { firstEventMs, doneMs, ok } };
}
