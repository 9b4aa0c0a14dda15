import pino from 'pino';
import type { RouteRecordInput } from '../../../../actors/tools/router/route-pages';
import { RouteRecorder } from '../../../../actors/tools/router/route-records';
import { RoutePageDocumentSchema, type RoutePageDocument } from '../../../../schemas/documents/route-record';

/** Rows of each page written (pages are checked by the schema, as the store would read them). */
const rowsOf = (page: unknown) => RoutePageDocumentSchema.parse(page).rows.tool.length;

/** Repositories that only note what the recorder writes. */
function fakeStore() {
  const inserted: unknown[][] = [];
  const pages: RoutePageDocument[] = [];
  const upserts: unknown[][] = [];
  const records = {
    raw: {
      insertOne: async (page: RoutePageDocument) => {
        pages.push(page);
        inserted.push(new Array(rowsOf(page)));
      },
    },
  };
  const stats = { raw: { bulkWrite: async (ops: unknown[]) => void upserts.push(ops) } };
  return { inserted, pages, upserts, records: records as never, stats: stats as never };
}

/** Executions counted by the counter upserts written so far. */
const counted = (upserts: unknown[][]) =>
  (upserts.flat() as Array<{ updateOne: { update: { $inc: { executions: number } } } }>).reduce(
    (n, op) => n + op.updateOne.update.$inc.executions,
    0,
  );

const call = (agentId: string, primitive = 'mem_get'): RouteRecordInput => ({
  tool: `platform.${primitive}`,
  primitive,
  fallbackUsed: false,
  invokedByType: 'agent',
  routeDecision: { source: 'platform' },
  related: { apps: [], workflows: [], skills: [] },
  agentRef: `agref-${agentId}`,
  agentId,
  status: 'ok',
  durationMs: 1,
  at: new Date(),
});

describe('RouteRecorder', () => {
  const logger = pino({ level: 'silent' });

  it('writes records and counters together on the timer (light load)', async () => {
    const store = fakeStore();
    const recorder = new RouteRecorder(store.records, store.stats, logger, { flushIntervalMs: 20 });
    recorder.record(call('a'), true);
    recorder.record(call('a'), true);
    await new Promise((r) => setTimeout(r, 60));
    expect(store.inserted.map((b) => b.length)).toEqual([2]);
    expect(store.upserts).toHaveLength(1);
    await recorder.close();
  });

  it('writes each batch as one page, page ids in the order written', async () => {
    const store = fakeStore();
    const recorder = new RouteRecorder(store.records, store.stats, logger, { batchSize: 3 });
    for (let i = 0; i < 7; i++) recorder.record(call(`agent-${i % 2}`), true);
    await recorder.close();
    expect(store.pages.map((p) => p.rows.tool.length)).toEqual([3, 3, 1]);
    const ids = store.pages.map((p) => p._id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
    expect(store.pages[0].agentIds.sort()).toEqual(['agent-0', 'agent-1']);
  });

  it('under load, writes every full batch of records but the counters at most once per interval', async () => {
    const store = fakeStore();
    const recorder = new RouteRecorder(store.records, store.stats, logger, {
      batchSize: 10,
      flushIntervalMs: 60_000,
      statsIntervalMs: 60_000,
    });
    for (let i = 0; i < 50; i++) recorder.record(call(`agent-${i % 5}`), true);
    await recorder.flush(false);
    expect(store.inserted.map((b) => b.length)).toEqual([10, 10, 10, 10, 10]);
    // The first full batch wrote the counters; the next four left them for later.
    expect(store.upserts).toHaveLength(1);
    await recorder.close();
    // Nothing counted is lost: close writes the rest (5 agents, one primitive).
    expect(store.upserts).toHaveLength(2);
    expect(counted(store.upserts)).toBe(50);
  });

  it('bounds the records waiting while the store hangs: further batches are dropped, then writes resume', async () => {
    const inserted: unknown[][] = [];
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const records = {
      raw: {
        insertOne: async (page: unknown) => {
          await hanging;
          inserted.push(new Array(rowsOf(page)));
        },
      },
    };
    const stats = { raw: { bulkWrite: async () => undefined } };
    const recorder = new RouteRecorder(records as never, stats as never, logger, {
      batchSize: 2,
      maxBuffered: 5,
    });
    for (let i = 0; i < 10; i++) recorder.record(call(`a${i}`), true);
    release();
    recorder.record(call('after'), true);
    await recorder.close();
    // Two batches of two fit under 5; the next three were dropped; the store then took the rest.
    expect(inserted.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });

  it('drops a batch the store refuses, says so in the log, and writes the next ones', async () => {
    const written: number[] = [];
    const warnings: string[] = [];
    let refuse = true;
    const records = {
      raw: {
        insertOne: async (page: unknown) => {
          if (refuse) throw new Error('connection refused');
          written.push(rowsOf(page));
        },
      },
    };
    const stats = { raw: { bulkWrite: async () => undefined } };
    const log = pino(
      { level: 'warn' },
      { write: (line: string) => void warnings.push(JSON.parse(line).msg) },
    );
    const recorder = new RouteRecorder(records as never, stats as never, log, { batchSize: 2 });
    recorder.record(call('a'), true);
    recorder.record(call('a'), true);
    await recorder.flush();
    refuse = false;
    recorder.record(call('b'), true);
    await recorder.close();
    expect(warnings).toEqual(['route records: write failed, batch dropped']);
    expect(written).toEqual([1]);
  });

  it('writes the counters left behind by a full batch on the timer', async () => {
    const store = fakeStore();
    const recorder = new RouteRecorder(store.records, store.stats, logger, {
      batchSize: 2,
      flushIntervalMs: 20,
      statsIntervalMs: 60_000,
    });
    for (let i = 0; i < 4; i++) recorder.record(call('a', 'mem_set'), true);
    await new Promise((r) => setTimeout(r, 80));
    expect(counted(store.upserts)).toBe(4);
    await recorder.close();
  });
});
