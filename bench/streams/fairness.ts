import { medianBy } from './http-client';
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

/**
 * `runFairness` `rounds` times in a row: B's figure is one stream, so one round says little. Kept:
 * the round of median B first event, a round whose B failed counting as the slowest, so that a
 * failure is never hidden by the others; every round is returned.
 */
export async function runFairnessRounds(
  target: Target,
  tokenA: string,
  tokenB: string,
  o: { streams: number; message: string; rounds: number },
  log: (line: string) => void,
): Promise<{ fairness: FairnessFigures; rounds: FairnessFigures[] }> {
  const rounds: FairnessFigures[] = [];
  for (let i = 0; i < o.rounds; i += 1) {
    const round = await runFairness(target, tokenA, tokenB, o.streams, o.message);
    rounds.push(round);
    log(
      `  round ${i + 1}: B first event ${round.single.firstEventMs} ms, done ${round.single.doneMs} ms; A first p50 ${round.burst.firstEventMs.p50} / p99 ${round.burst.firstEventMs.p99} ms`,
    );
  }
  const fairness = medianBy(rounds, (r) => (r.single.ok ? r.single.firstEventMs : Number.POSITIVE_INFINITY));
  log(`  kept (median B): B first event ${fairness.single.firstEventMs} ms`);
  return { fairness, rounds };
}
