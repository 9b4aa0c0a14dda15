import { AppError } from '../../../schemas/errors';
import { silentLogger } from '../../../src/logging/logger';
import { createSandbox, HOST_CALL_LIMITS, type HostCalls, type Sandbox } from '../../../src/sandbox';

/** A host whose calls wait until their signal aborts (or `ms` pass), recording that abort. */
function slowHost(ms: number, aborted: string[]): HostCalls {
  return {
    call: (name, _input, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(name), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          aborted.push(name);
          resolve(null);
        });
      }),
  };
}

describe('sandbox: host calls (platform.call)', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox({ threads: 1, logger: silentLogger });
  });
  afterAll(() => sandbox.close());

  it('answers synchronously inside the script, in order, with JSON values both ways', async () => {
    const seen: Array<[string, unknown]> = [];
    const host: HostCalls = {
      call: async (name, input) => {
        seen.push([name, input]);
        await new Promise((r) => setTimeout(r, 10));
        return { echoed: input, n: seen.length };
      },
    };
    const r = await sandbox.execute(
      {
        language: 'js',
        code: "const a = platform.call('first', { x: 1 }); const b = platform.call('second'); [a, b]",
      },
      { host },
    );
    expect(r.outcome).toBe('ok');
    expect(r.result).toEqual([
      { echoed: { x: 1 }, n: 1 },
      { echoed: {}, n: 2 },
    ]);
    expect(seen).toEqual([
      ['first', { x: 1 }],
      ['second', {}],
    ]);
  });

  it('turns a refusal into a catchable PlatformError with the code', async () => {
    const host: HostCalls = {
      call: async (name) => {
        if (name === 'secret') throw new AppError('PERMISSION_DENIED', 'not for you');
        throw new Error('a defect with a private message');
      },
    };
    const r = await sandbox.execute(
      {
        language: 'js',
        code: `const out = [];
        for (const n of ['secret', 'defect']) {
          try { platform.call(n, {}); } catch (e) { out.push([e.name, e.code, e.message]); }
        }
        out`,
      },
      { host },
    );
    expect(r.result).toEqual([
      ['PlatformError', 'PERMISSION_DENIED', 'not for you'],
      ['PlatformError', 'INTERNAL_ERROR', 'Internal error'],
    ]);
  });

  it('offers no platform global without a host, and the global cannot be replaced', async () => {
    expect((await sandbox.execute({ language: 'js', code: 'typeof platform' })).result).toBe('undefined');
    const r = await sandbox.execute(
      { language: 'js', code: "'use strict'; try { platform = 1; 'replaced' } catch (e) { e.name }" },
      { host: { call: async () => null } },
    );
    expect(r.result).toBe('TypeError');
  });

  it('counts a host call against the timeout, and aborts the call when the run ends', async () => {
    const aborted: string[] = [];
    const started = Date.now();
    const r = await sandbox.execute(
      { language: 'js', timeout: 300, code: "platform.call('slow', {}); 'never'" },
      { host: slowHost(10_000, aborted) },
    );
    expect(r).toMatchObject({ outcome: 'timeout', exitCode: 124 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(aborted).toEqual(['slow']);
  });

  it('a cancel wakes a script blocked on a host call', async () => {
    const controller = new AbortController();
    const aborted: string[] = [];
    const running = sandbox.execute(
      { language: 'js', code: "platform.call('slow', {}); 'never'" },
      { signal: controller.signal, host: slowHost(10_000, aborted) },
    );
    setTimeout(() => controller.abort('panic'), 150);
    const r = await running;
    expect(r.outcome).toBe('cancelled');
    expect(r.stderr).toContain('execution cancelled (panic)');
    expect(aborted).toEqual(['slow']);
  });

  it('limits the number of calls and the size of inputs and answers', async () => {
    const many = await sandbox.execute(
      { language: 'js', code: "for (let i = 0; i < 60; i++) platform.call('x', {}); 'done'" },
      { host: { call: async () => 1, maxCalls: 5 } },
    );
    expect(many.outcome).toBe('error');
    expect(many.stderr).toContain('At most 5 platform calls per run');
    const big = await sandbox.execute(
      {
        language: 'js',
        code: `const out = [];
        try { platform.call('in', { s: 'x'.repeat(${HOST_CALL_LIMITS.maxInputBytes}) }); } catch (e) { out.push(e.code); }
        try { platform.call('out', {}); } catch (e) { out.push(e.code); }
        out`,
      },
      { host: { call: async () => 'y'.repeat(HOST_CALL_LIMITS.maxAnswerBytes + 1) } },
    );
    expect(big.result).toEqual(['PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE']);
  });
});
