import type { Pool } from 'undici';
import { callJson, readSse, type SseEvent } from './http-client';

/** `streams` SSE clients held open on running executions. */
export interface HeldFigures {
  streams: number;
  executions: number;
  /** Clients that got every log line in order and `done` COMPLETED. */
  complete: number;
  /** Clients that failed (non-200, transport, no `done`, lines missing or out of order). */
  failed: number;
  /** Events received over all clients after the resume. */
  events: number;
  /** Resident memory of each service process before the clients connected and with all open, KB. */
  rssBeforeKb: Record<string, number>;
  rssOpenKb: Record<string, number>;
  /** (all open − before) summed over the service processes, per open stream, KB. */
  kbPerStream: number;
  /** From the resume to the last `done`, ms. */
  runMs: number;
  samples: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `streams` clients of `GET /api/executions/{id}/events`, spread over `executions` DEMO_STEPS
 * executions of `steps` sleeps of `stepMs`: created and paused, every client connects and gets the
 * current state (the memory is read then), then all are resumed and run to their end while the
 * clients watch (events flowing on every stream).
 */
export async function runHeldStreams(
  pool: Pool,
  token: string,
  o: {
    streams: number;
    executions: number;
    steps: number;
    stepMs: number;
    rssKb: () => Record<string, number>;
  },
): Promise<HeldFigures> {
  const samples: string[] = [];
  const sample = (line: string) => samples.length < 5 && samples.push(line);
  const ids: string[] = [];
  for (let i = 0; i < o.executions; i += 1) {
    const created = await callJson(pool, 'POST', '/api/executions', token, {
      title: `bench:streams held ${i}`,
      start: false,
      steps: Array.from({ length: o.steps }, (_, k) => ({
        op: 'sleep',
        ms: o.stepMs,
        name: `wait ${k + 1}`,
      })),
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const id = (created.body as { execution: { id: string } }).execution.id;
    const paused = await callJson(pool, 'POST', `/api/executions/${id}/actions`, token, { action: 'pause' });
    if (paused.status !== 200) throw new Error(`pause: ${paused.status}`);
    ids.push(id);
  }
  const rssBeforeKb = o.rssKb();
  const received: SseEvent[][] = Array.from({ length: o.streams }, () => []);
  const ended: Array<string | undefined> = new Array(o.streams).fill(undefined);
  const streams = received.map(async (events, i) => {
    try {
      const res = await pool.request({
        method: 'GET',
        path: `/api/executions/${ids[i % ids.length]}/events`,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: AbortSignal.timeout(150_000),
      });
      if (res.statusCode !== 200) {
        ended[i] = `HTTP ${res.statusCode}`;
        await res.body.text();
        return;
      }
      await readSse(res.body, (e) => events.push(e));
      ended[i] = 'ended';
    } catch (err) {
      ended[i] = `transport: ${(err as Error)?.message ?? String(err)}`;
    }
  });
  const deadline = Date.now() + 90_000;
  while (received.some((ev, i) => ended[i] === undefined && !ev.some((e) => e.event === 'execution'))) {
    if (Date.now() > deadline) throw new Error(`held streams: not all ${o.streams} connected within 90 s`);
    await sleep(50);
  }
  await sleep(500);
  const rssOpenKb = o.rssKb();
  const snapshot = received.map((ev) => ev.length);
  const resumedAt = Date.now();
  await Promise.all(
    ids.map((id) => callJson(pool, 'POST', `/api/executions/${id}/actions`, token, { action: 'resume' })),
  );
  await Promise.all(streams);
  const runMs = Date.now() - resumedAt;

  let complete = 0;
  let failed = 0;
  let events = 0;
  received.forEach((ev, i) => {
    events += ev.length - snapshot[i]!;
    const last = ev.at(-1);
    const seqs = ev.filter((e) => e.event === 'log').map((e) => (e.data as { log: { seq: number } }).log.seq);
    const inOrder = seqs.every((s, k) => s === k + 1);
    const status = (last?.data as { status?: string } | undefined)?.status;
    if (
      ended[i] === 'ended' &&
      last?.event === 'done' &&
      status === 'COMPLETED' &&
      inOrder &&
      seqs.length > 0
    ) {
      complete += 1;
    } else {
      failed += 1;
      sample(
        `held ${i}: ${ended[i]}, last ${last?.event ?? 'none'} ${status ?? ''}, lines in order ${inOrder}`,
      );
    }
  });
  const grown = Object.keys(rssOpenKb).reduce((n, k) => n + (rssOpenKb[k]! - (rssBeforeKb[k] ?? 0)), 0);
  return {
    streams: o.streams,
    executions: o.executions,
    complete,
    failed,
    events,
    rssBeforeKb,
    rssOpenKb,
    kbPerStream: Math.round((grown / o.streams) * 10) / 10,
    runMs,
    samples,
  };
}
