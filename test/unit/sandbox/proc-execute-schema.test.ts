import { ProcExecuteInputSchema, PROC_EXECUTE_LIMITS } from '../../../schemas/tools/proc-execute';

describe('ProcExecuteInputSchema', () => {
  it('normalises the language and accepts the js alias', () => {
    expect(ProcExecuteInputSchema.parse({ language: ' JavaScript ', code: '1' }).language).toBe('javascript');
    expect(ProcExecuteInputSchema.parse({ language: 'JS', code: '1' }).language).toBe('js');
  });

  it('refuses an unknown language, naming the supported ones', () => {
    const r = ProcExecuteInputSchema.safeParse({ language: 'python', code: 'print(1)' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toMatch(/javascript/);
  });

  it('bounds the timeout to 1..30000 integer milliseconds', () => {
    for (const timeout of [0, 30_001, 1.5, -1]) {
      expect(ProcExecuteInputSchema.safeParse({ language: 'js', code: '1', timeout }).success).toBe(false);
    }
    expect(ProcExecuteInputSchema.safeParse({ language: 'js', code: '1', timeout: 30_000 }).success).toBe(
      true,
    );
  });

  it('measures the code limit in UTF-8 bytes', () => {
    const max = PROC_EXECUTE_LIMITS.maxCodeBytes;
    expect(ProcExecuteInputSchema.safeParse({ language: 'js', code: 'x'.repeat(max) }).success).toBe(true);
    // Half as many characters, but each is 3 bytes.
    expect(ProcExecuteInputSchema.safeParse({ language: 'js', code: '日'.repeat(max / 2) }).success).toBe(
      false,
    );
  });

  it('caps args', () => {
    const args = Array.from({ length: PROC_EXECUTE_LIMITS.maxArgs + 1 }, () => 'a');
    expect(ProcExecuteInputSchema.safeParse({ language: 'js', code: '1', args }).success).toBe(false);
  });
});
