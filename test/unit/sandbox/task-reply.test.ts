import { ProcExecuteResultSchema } from '../../../schemas/tools/proc-execute';
import { readTaskReply } from '../../../src/sandbox/task-reply';

const TaskReplySchema = ProcExecuteResultSchema.omit({ exitCode: true });

const valid = { stdout: 'a\n', stderr: '', durationMs: 3, truncated: false, outcome: 'ok' };

const samples: unknown[] = [
  valid,
  { ...valid, result: { a: [1, 'x', null, true] } },
  { ...valid, result: null },
  { ...valid, outcome: 'timeout', stderr: 'Error: script timed out after 5 ms\n' },
  { ...valid, extra: 'dropped' },
  { ...valid, outcome: 'exploded' },
  { ...valid, durationMs: -1 },
  { ...valid, durationMs: 1.5 },
  { ...valid, truncated: 'no' },
  { ...valid, stdout: undefined },
  { ...valid, stderr: 7 },
  null,
  'ok',
  [valid],
];

describe('readTaskReply', () => {
  it.each(samples.map((s) => [JSON.stringify(s) ?? String(s), s]))(
    'agrees with the schema on %s',
    (_label, sample) => {
      const parsed = TaskReplySchema.safeParse(sample);
      const read = readTaskReply(sample);
      if (parsed.success) expect(read).toEqual(parsed.data);
      else expect(read).toBeUndefined();
    },
  );

  it('keeps the schema field order and only its fields', () => {
    const read = readTaskReply({ ...valid, result: 4, extra: 1 });
    expect(Object.keys(read!)).toEqual(['stdout', 'stderr', 'durationMs', 'truncated', 'outcome', 'result']);
  });
});
