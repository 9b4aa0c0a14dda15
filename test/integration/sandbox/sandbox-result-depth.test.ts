import pino from 'pino';
import { isAppError } from '../../../schemas/errors';
import { MAX_JSON_DEPTH } from '../../../schemas/json-depth';
import { PROC_EXECUTE_LIMITS } from '../../../schemas/tools/proc-execute';
import { createSandbox, type Sandbox } from '../../../src/sandbox';

/**
 * JSON nested deeper than the service's limit (MAX_JSON_DEPTH, 64 levels) is refused with VALIDATION_ERROR, in a
 * run's result and in its request, never answered with a value that overflows the stack of the
 * next thing that walks it (it used to hang the call until its timeout, or answer 500 over HTTP).
 */
describe('sandbox: nesting depth of results and requests', () => {
  let sandbox: Sandbox;

  beforeAll(() => {
    sandbox = createSandbox({ threads: 1, logger: pino({ level: 'silent' }) });
  });
  afterAll(() => sandbox.close());

  const nested = (depth: number) => `let a = 1; for (let i = 0; i < ${depth}; i++) a = [a]; a`;

  it('uses the service-wide limit (64 levels)', () => {
    expect(PROC_EXECUTE_LIMITS.maxResultDepth).toBe(MAX_JSON_DEPTH);
    expect(MAX_JSON_DEPTH).toBe(64);
  });

  it('returns a result nested exactly 64 levels deep', async () => {
    const r = await sandbox.execute({ language: 'js', code: nested(64) });
    expect(r.outcome).toBe('ok');
    expect(JSON.stringify(r.result)).toBe(`${'['.repeat(64)}1${']'.repeat(64)}`);
  });

  it.each([65, 5000])('refuses a result nested %i levels deep with VALIDATION_ERROR', async (depth) => {
    const err = await sandbox.execute({ language: 'js', code: nested(depth) }).catch((e: unknown) => e);
    expect(isAppError(err)).toBe(true);
    expect(err).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      details: { reason: 'result_too_deep', limit: 64 },
    });
    expect((err as Error).message).toMatch(/deeper than 64 levels/);
  });

  it('counts objects and arrays alike, and not brackets inside strings', async () => {
    const objects = 'let o = {}; for (let i = 0; i < 200; i++) o = { o }; o';
    await expect(sandbox.execute({ language: 'js', code: objects })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const r = await sandbox.execute({ language: 'js', code: "({ s: '['.repeat(1000) + '{'.repeat(1000) })" });
    expect(r).toMatchObject({ outcome: 'ok', result: { s: `${'['.repeat(1000)}${'{'.repeat(1000)}` } });
  });

  it('refuses a request with deeply nested parameters with VALIDATION_ERROR', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const request = { language: 'js', code: '1', args: deep } as unknown as Parameters<Sandbox['execute']>[0];
    await expect(sandbox.execute(request)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    // An unknown parameter, however deep, is not walked.
    const extra = { language: 'js', code: '2', extra: deep } as Parameters<Sandbox['execute']>[0];
    await expect(sandbox.execute(extra)).resolves.toMatchObject({ outcome: 'ok', result: 2 });
  });
});
