import {
  encodeRoutePage,
  newestFirst,
  recordsOf,
  type PagedRecord,
  type RouteRecordInput,
} from '../../../../actors/tools/router/route-pages';
import { RoutePageDocumentSchema } from '../../../../schemas/documents/route-record';

const NONE = { apps: [], workflows: [], skills: [] };
const T0 = Date.parse('2026-11-20T10:00:00.000Z');

const record = (over: Partial<RouteRecordInput>): RouteRecordInput => ({
  tool: 'platform.mem_get',
  primitive: 'mem_get',
  fallbackUsed: false,
  invokedByType: 'agent',
  routeDecision: { source: 'platform' },
  related: NONE,
  agentRef: 'agref-a',
  agentId: 'agt_a',
  status: 'ok',
  durationMs: 1.25,
  at: new Date(T0),
  ...over,
});

// Recorded in the order calls ended, so not in the order they started (`at`).
const records: RouteRecordInput[] = [
  record({ at: new Date(T0 + 40) }),
  record({ at: new Date(T0 + 5), agentId: 'agt_b', agentRef: 'agref-b', accountId: 'acc_1' }),
  record({
    tool: 'mcp.github.create_issue',
    primitive: 'mcp.github.create_issue',
    routeDecision: { source: 'external_mcp' },
    invokedByType: 'workflow',
    related: { apps: ['app-1'], workflows: ['wf-1', 'wf-2'], skills: [] },
    accountId: 'acc_1',
    at: new Date(T0 + 12),
  }),
  record({ status: 'error', errorCode: 'PERMISSION_DENIED', durationMs: 0, at: new Date(T0 + 12) }),
  record({
    fallbackUsed: true,
    invokedByType: 'studio',
    routeDecision: { source: 'skill' },
    at: new Date(T0 + 99),
  }),
];

describe('route pages', () => {
  const page = encodeRoutePage('rp_test_00000001', records);

  it('is a valid page document: every string once, the owners listed, from and until the extremes', () => {
    expect(RoutePageDocumentSchema.parse(page)).toEqual(page);
    expect(new Set(page.strings).size).toBe(page.strings.length);
    expect(page.agentIds.sort()).toEqual(['agt_a', 'agt_b']);
    expect(page.accountIds).toEqual(['acc_1']);
    expect(page.from.getTime()).toBe(T0 + 5);
    expect(page.until.getTime()).toBe(T0 + 99);
    // The related column starts at the first record naming something, with nulls before it.
    expect(page.rows.related).toEqual([null, null, records[2].related, null, null]);
  });

  it('gives back exactly what was recorded, per agent and per account', () => {
    const ofA = recordsOf(page, { agentId: 'agt_a' });
    expect(ofA.map((r) => r.row)).toEqual([0, 2, 3, 4]);
    expect(ofA.map((r) => r.record)).toEqual([records[0], records[2], records[3], records[4]]);
    expect(recordsOf(page, { agentId: 'agt_b' }).map((r) => r.record)).toEqual([records[1]]);
    expect(recordsOf(page, { accountId: 'acc_1' }).map((r) => r.record)).toEqual([records[1], records[2]]);
    expect(recordsOf(page, { agentId: 'agt_a', accountId: 'acc_1' }).map((r) => r.row)).toEqual([2]);
    expect(recordsOf(page, { agentId: 'agt_nobody' })).toEqual([]);
    expect(recordsOf(page, { accountId: 'agref-a' })).toEqual([]);
  });

  it('leaves the related column out when no record names anything', () => {
    const plain = encodeRoutePage('rp_test_00000002', [records[0], records[1]]);
    expect(plain.rows.related).toBeUndefined();
    expect(recordsOf(plain, { agentId: 'agt_a' })[0].record.related).toEqual(NONE);
  });

  it('refuses a page whose columns disagree or point past its strings', () => {
    const short = { ...page, rows: { ...page.rows, durationMs: page.rows.durationMs.slice(1) } };
    expect(RoutePageDocumentSchema.safeParse(short).success).toBe(false);
    const dangling = { ...page, rows: { ...page.rows, tool: page.rows.tool.map(() => page.strings.length) } };
    expect(RoutePageDocumentSchema.safeParse(dangling).success).toBe(false);
    const negative = { ...page, rows: { ...page.rows, agentId: page.rows.agentId.map(() => -1) } };
    expect(RoutePageDocumentSchema.safeParse(negative).success).toBe(false);
  });

  it('orders newest first, then by page id and row, both descending', () => {
    const at = (ms: number, page: string, row: number): PagedRecord => ({
      record: record({ at: new Date(T0 + ms) }),
      page,
      row,
    });
    const list = [at(1, 'p1', 0), at(2, 'p1', 1), at(2, 'p2', 0), at(2, 'p2', 3), at(0, 'p3', 9)];
    expect(
      [...list].sort(newestFirst).map((r) => `${r.record.at.getTime() - T0}:${r.page}:${r.row}`),
    ).toEqual(['2:p2:3', '2:p2:0', '2:p1:1', '1:p1:0', '0:p3:9']);
  });
});
