import { CallCounts } from '../../../actors/identity/call-counts';

/** An `agents` repository that notes its writes; `failing` makes the next one fail. */
function fakeAgents() {
  const writes: Array<{ kind: string; n: number; ops: unknown }> = [];
  const state = { failing: false };
  const raw = {
    updateOne: async (filter: unknown, update: unknown) => {
      if (state.failing) throw new Error('store down');
      writes.push({ kind: 'updateOne', n: 1, ops: { filter, update } });
    },
    bulkWrite: async (ops: unknown[]) => {
      if (state.failing) throw new Error('store down');
      writes.push({ kind: 'bulkWrite', n: ops.length, ops });
    },
  };
  return { writes, state, repo: { name: 'agents', raw } as never };
}

describe('CallCounts', () => {
  it('writes every agent of the process in one bulkWrite per interval', async () => {
    const agents = fakeAgents();
    const counts = new CallCounts(agents.repo, 30);
    for (let i = 0; i < 30; i++) counts.add(`agt_${i % 3}`, 1, 1000 + i);
    expect(counts.pending('agt_0')).toEqual({ calls: 10, lastActiveAt: 1027 });
    await new Promise((r) => setTimeout(r, 80));
    expect(agents.writes.map((w) => [w.kind, w.n])).toEqual([['bulkWrite', 3]]);
    const first = (agents.writes[0].ops as Array<{ updateOne: { filter: unknown; update: unknown } }>)[0];
    expect(first.updateOne).toEqual({
      filter: { _id: 'agt_0' },
      update: { $inc: { totalCalls: 10 }, $max: { lastActiveAt: new Date(1027) } },
    });
    expect(counts.pending('agt_0')).toEqual({ calls: 0, lastActiveAt: null });
  });

  it('writes one agent at once on demand (agent.get, passivation)', async () => {
    const agents = fakeAgents();
    const counts = new CallCounts(agents.repo, 60_000);
    counts.add('agt_a', 2, 5);
    counts.add('agt_b', 1, 5);
    await counts.flushAgent('agt_a');
    expect(agents.writes.map((w) => [w.kind, w.n])).toEqual([['updateOne', 1]]);
    expect(counts.pending('agt_b').calls).toBe(1);
    await counts.flushAll();
  });

  it('keeps the counts of a failed write for the next one', async () => {
    const agents = fakeAgents();
    const counts = new CallCounts(agents.repo, 60_000);
    counts.add('agt_a', 3, 5);
    agents.state.failing = true;
    await expect(counts.flushAgent('agt_a')).rejects.toBeTruthy();
    expect(counts.pending('agt_a').calls).toBe(3);
    agents.state.failing = false;
    counts.add('agt_a', 1, 9);
    await counts.flushAgent('agt_a');
    expect(agents.writes).toHaveLength(1);
    expect(agents.writes[0].ops).toMatchObject({ update: { $inc: { totalCalls: 4 } } });
  });
});
