// How a failure of the engine itself (an exception on the host side of the FFI) is classified. The
// real engine is exercised by the integration tests; here it is replaced by one that fails on demand.
const { runScript } = require('../../../src/sandbox/quickjs-run') as {
  runScript(
    engine: unknown,
    task: unknown,
    limits: unknown,
    cancelRequested: () => boolean,
  ): { reply: { outcome: string; stderr: string }; healthy: boolean; internalError?: string };
};

const MB = 1024 * 1024;
const limits = {
  memoryLimitBytes: 64 * MB,
  maxStackSizeBytes: 512 * 1024,
  outputLimitBytes: 1024,
  resultLimitBytes: 1024,
};
const task = { code: '1', stdin: '', args: [], timeoutMs: 1000 };

function failingEngine(error: Error, memoryBytes = 16 * MB) {
  return {
    module: {
      newRuntime() {
        throw error;
      },
    },
    memory: { buffer: { byteLength: memoryBytes } },
    maxBytes: 64 * MB,
    runs: 0,
  };
}

describe('runScript on a failing engine', () => {
  it('reports a native stack overflow as the script error it is, and retires the engine', () => {
    const report = runScript(
      failingEngine(new RangeError('Maximum call stack size exceeded')),
      task,
      limits,
      () => false,
    );
    expect(report.reply.outcome).toBe('error');
    expect(report.reply.stderr).toBe('InternalError: stack overflow\n');
    expect(report.healthy).toBe(false);
    expect(report.internalError).toBeUndefined();
  });

  it('reports a trap with the memory at its cap as out of memory', () => {
    const report = runScript(
      failingEngine(new Error('memory access out of bounds'), 63 * MB),
      task,
      limits,
      () => false,
    );
    expect(report.reply.outcome).toBe('out_of_memory');
    expect(report.healthy).toBe(false);
  });

  it('reports any other engine failure as internal, never as the script’s fault', () => {
    const report = runScript(
      failingEngine(new Error('Aborted(Assertion failed)')),
      task,
      limits,
      () => false,
    );
    expect(report.internalError).toMatch(/Assertion failed/);
    expect(report.healthy).toBe(false);
  });
});
