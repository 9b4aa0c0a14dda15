import { ExecutionSweeper } from '../../../actors/executions/execution-leases';
import type { ExecutionStore } from '../../../actors/executions/execution-store';
import type { Logger } from '../../../src/logging/logger';
import { waitFor } from '../../support/async';

type Warn = [Record<string, unknown>, string];

/** A logger that keeps its warnings. */
function recordingLogger() {
  const warnings: Warn[] = [];
  const logger = {
    warn: (obj: Record<string, unknown>, msg: string) => warnings.push([obj, msg]),
    info: () => undefined,
    debug: () => undefined,
    error: () => undefined,
  } as unknown as Logger;
  return { logger, warnings };
}

const running = { status: () => ({ state: 'running', nodeId: 'n1' }) } as never;
const lapsed = (id: string) => ({ _id: id, current: { index: 1, leaseNode: 'n0' } });

/**
 * The sweeper of orphaned executions (docs/executions.md, "Orphaned steps") when the document store
 * fails: one execution whose write fails is logged and skipped, the others of the pass are still
 * swept; a pass whose read fails is logged by the timer, which keeps sweeping.
 */
describe('ExecutionSweeper on store failures', () => {
  it('logs and continues when the write of one execution fails', async () => {
    const { logger, warnings } = recordingLogger();
    const mutated: string[] = [];
    const store = {
      repo: { find: async () => [lapsed('exe_a'), lapsed('exe_bad'), lapsed('exe_c')] },
      mutate: async (id: string) => {
        mutated.push(id);
        if (id === 'exe_bad') throw new Error('write failed: store unreachable');
        return { doc: {}, decision: { kind: 'fail' } };
      },
    } as unknown as ExecutionStore;
    const sweeper = new ExecutionSweeper(store, running, logger);

    await expect(sweeper.sweep()).resolves.toBe(2);
    expect(mutated).toEqual(['exe_a', 'exe_bad', 'exe_c']);
    const notSwept = warnings.filter(([, msg]) => msg === 'orphaned execution not swept');
    expect(notSwept).toHaveLength(1);
    expect(notSwept[0]![0]).toMatchObject({ executionId: 'exe_bad' });
    expect(warnings.filter(([, msg]) => msg === 'execution step orphaned: its lease lapsed')).toHaveLength(2);
  });

  it('rejects a pass whose read fails; the timer logs it and sweeps again', async () => {
    const { logger, warnings } = recordingLogger();
    let reads = 0;
    const store = {
      repo: {
        find: async () => {
          reads++;
          if (reads === 1) throw new Error('read failed: store unreachable');
          return [];
        },
      },
      mutate: async () => ({ doc: {}, decision: null }),
    } as unknown as ExecutionStore;
    const sweeper = new ExecutionSweeper(store, running, logger);
    try {
      sweeper.start(10);
      await waitFor(() => reads >= 2, 'a second pass after the failed one', 2000);
    } finally {
      sweeper.stop();
    }
    expect(warnings.filter(([, msg]) => msg === 'execution sweep failed')).toHaveLength(1);
    // One pass at a time: after a failure the next pass starts afresh.
    await expect(sweeper.sweep()).resolves.toBe(0);
  });
});
