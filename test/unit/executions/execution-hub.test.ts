import { ExecutionHub } from '../../../actors/executions/execution-hub';
import type { ExecutionEvent } from '../../../schemas/messages/executions';
import { silentLogger } from '../../../src/logging/logger';

const done = (executionId: string): ExecutionEvent =>
  ({ type: 'done', executionId, status: 'COMPLETED' }) as unknown as ExecutionEvent;

/** A one-node system: broadcasts are recorded and delivered to this node's listeners. */
function fakeSystem(options: { failBroadcast?: boolean } = {}) {
  const sent: Array<{ name: string; body: unknown; keys?: readonly string[] }> = [];
  const listeners = new Map<string, Array<(body: unknown) => void>>();
  const wants = new Map<string, (key: string) => boolean>();
  const system = {
    broadcast: async (name: string, body: unknown, about?: { keys?: readonly string[] }) => {
      if (options.failBroadcast) throw new Error('broker down');
      sent.push({ name, body, ...(about?.keys ? { keys: about.keys } : {}) });
      for (const l of listeners.get(name) ?? []) l(body);
    },
    onBroadcast: (
      name: string,
      listener: (body: unknown) => void,
      listen?: { wants?: (key: string) => boolean },
    ) => {
      if (listen?.wants) wants.set(name, listen.wants);
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return () =>
        listeners.set(
          name,
          (listeners.get(name) ?? []).filter((l) => l !== listener),
        );
    },
  };
  const deliver = (name: string, body: unknown) => (listeners.get(name) ?? []).forEach((l) => l(body));
  return { system: system as unknown as ConstructorParameters<typeof ExecutionHub>[0], sent, deliver, wants };
}

describe('ExecutionHub', () => {
  it('sends the events of every execution published in one turn as one broadcast, in order', async () => {
    const { system, sent } = fakeSystem();
    const hub = new ExecutionHub(system, silentLogger);
    const got: string[] = [];
    hub.watch('exe_b').subscribe((e) => got.push(`${e.type}:${(e as { executionId: string }).executionId}`));
    await Promise.all(['exe_a', 'exe_b', 'exe_c'].map((id) => hub.publish(id, [done(id)])));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.name).toBe('execution.events');
    expect(
      (sent[0]!.body as { items: Array<{ executionId: string }> }).items.map((i) => i.executionId),
    ).toEqual(['exe_a', 'exe_b', 'exe_c']);
    expect(got).toEqual(['done:exe_b']); // only the watched one, delivered on this node
    hub.close();
  });

  it('names the executions of each broadcast as its keys, and wants only those watched here', async () => {
    const { system, sent, wants } = fakeSystem();
    const hub = new ExecutionHub(system, silentLogger);
    await Promise.all(['exe_a', 'exe_b'].map((id) => hub.publish(id, [done(id)])));
    expect(sent[0]!.keys).toEqual(['exe_a', 'exe_b']);
    // A node reads a keyed broadcast only if it watches one of its executions (the kernel asks).
    const wanted = wants.get('execution.events')!;
    expect(wanted('exe_a')).toBe(false);
    const sub = hub.watch('exe_a').subscribe();
    expect(wanted('exe_a')).toBe(true);
    expect(wanted('exe_b')).toBe(false);
    sub.unsubscribe();
    expect(wanted('exe_a')).toBe(false);
    hub.close();
  });

  it('still delivers the single execution.event of a node of an earlier version, and ignores malformed bodies', () => {
    const { system, deliver } = fakeSystem();
    const hub = new ExecutionHub(system, silentLogger);
    const got: string[] = [];
    hub.watch('exe_old').subscribe((e) => got.push(e.type));
    deliver('execution.events', { items: 'not a list' });
    deliver('execution.events', null);
    deliver('execution.events', {
      items: [null, { executionId: 5 }, { executionId: 'exe_old', events: 'not a list' }],
    });
    deliver('execution.event', { executionId: 'exe_old', events: [{ type: 'nonsense' }] });
    deliver('execution.event', { executionId: 'exe_old', events: [done('exe_old')] });
    expect(got).toEqual(['done']);
    hub.close();
  });

  it('never rejects a publish when the broker refuses the broadcast (the write is already stored)', async () => {
    const { system } = fakeSystem({ failBroadcast: true });
    const warnings: unknown[] = [];
    const logger = {
      ...silentLogger,
      warn: (...args: unknown[]) => warnings.push(args),
    } as typeof silentLogger;
    const hub = new ExecutionHub(system, logger);
    await expect(hub.publish('exe_a', [done('exe_a')])).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    hub.close();
  });
});
