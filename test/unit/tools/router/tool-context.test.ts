import { memDeleteTool, memGetTool, memSetTool } from '../../../../actors/tools/mem/mem.tools';
import { ToolCallContext } from '../../../../actors/tools/router/tool-context';
import type { Principal } from '../../../../schemas/auth';
import type { Services } from '../../../../src/boot/services';
import { createWorkAborter } from '../../../../src/boot/work-aborter';
import { stableEnvelopeId } from '../../../../src/kernel';
import type { Logger } from '../../../../src/logging/logger';

describe('ToolCallContext', () => {
  const principal = { subjectType: 'agent', agentId: 'agt_1' } as unknown as Principal;
  const agent = { id: 'agt_1', agentRef: 'agref-1', workspaceId: 'ws1', allowedDomains: [] };
  const logger = {} as Logger;

  function setup(lazy: boolean) {
    const work = createWorkAborter();
    const own = new AbortController();
    let signalReads = 0;
    const actor = {
      get signal() {
        signalReads++;
        return own.signal;
      },
      logger,
    };
    const services = { work } as unknown as Services;
    const ctx = new ToolCallContext(principal, agent, services, actor, { workspaceId: 'ws1' }, lazy);
    return { work, own, ctx, reads: () => signalReads };
  }

  it('registers an abortable call before its tool runs, so that the panic button stops it', () => {
    const { work, ctx, reads } = setup(false);
    expect(reads()).toBe(1);
    expect(work.inFlight()).toBe(1);
    expect(work.abortAll('panic', { workspaceId: 'ws1' }).calls).toBe(1);
    expect(ctx.signal.aborted).toBe(true);
    ctx.release();
    expect(work.inFlight()).toBe(0);
  });

  it('makes no signal for a call that is not abortable until its tool reads it', () => {
    const { work, own, ctx, reads } = setup(true);
    expect(reads()).toBe(0);
    expect(work.inFlight()).toBe(0);
    const signal = ctx.signal;
    expect(ctx.signal).toBe(signal);
    expect(reads()).toBe(1);
    expect(work.inFlight()).toBe(1);
    // Still follows the call's own signal (the caller gave up, the deadline passed).
    own.abort(new Error('deadline'));
    expect(signal.aborted).toBe(true);
    ctx.release();
    ctx.release();
    expect(work.inFlight()).toBe(0);
  });

  it('registers nothing when the signal is first read after the call ended', () => {
    const { work, ctx } = setup(true);
    ctx.release();
    expect(ctx.signal.aborted).toBe(false);
    expect(work.inFlight()).toBe(0);
  });

  it('keeps the optional fields of the call', () => {
    const services = {} as Services;
    const actor = { signal: new AbortController().signal, logger };
    const related = { apps: [], workflows: [], skills: [] };
    const ctx = new ToolCallContext(principal, agent, services, actor, {}, true, 'exe_1', related);
    expect(ctx.executionId).toBe('exe_1');
    expect(ctx.related).toBe(related);
    expect(ctx.logger).toBe(logger);
    expect(ctx.signal).toBe(actor.signal);
    const bare = new ToolCallContext(principal, agent, services, actor, {}, true);
    expect('executionId' in bare).toBe(false);
    expect('related' in bare).toBe(false);
  });

  it("names the call by its envelope's id, and says how long another run of it may come", () => {
    const services = {} as Services;
    const signal = new AbortController().signal;
    const deadline = Date.now() + 15_000;
    const plain = new ToolCallContext(
      principal,
      agent,
      services,
      { signal, logger, envelope: { id: 'e1', deadline } },
      {},
      true,
    );
    expect(plain.call?.id).toBe('e1');
    // Until its deadline (the kernel drops a message past it), plus a margin for clocks.
    expect(plain.call?.retriesForMs).toBeGreaterThan(15_000);
    expect(plain.call?.retriesForMs).toBeLessThanOrEqual(75_000);
    // A keyed call's id comes again for as long as the kernel remembers handled ids.
    const keyed = new ToolCallContext(
      principal,
      agent,
      services,
      { signal, logger, envelope: { id: stableEnvelopeId('k'), deadline } },
      {},
      true,
    );
    expect(keyed.call?.retriesForMs).toBe(600_000);
    expect(
      new ToolCallContext(principal, agent, services, { signal, logger }, {}, true).call,
    ).toBeUndefined();
  });

  it('the memory tools, which never read their signal, are declared not abortable', () => {
    for (const tool of [memSetTool, memGetTool, memDeleteTool]) expect(tool.abortable).toBe(false);
  });
});
