import { randomUUID } from 'node:crypto';

/** One event of a stream answered at once, as the service sends it (`type` is the event name). */
export type FixedEvent =
  | { type: 'execution'; execution: Record<string, unknown> }
  | { type: 'reply'; executionId: string; final: true; text: string }
  | { type: 'done'; executionId: string; status: 'COMPLETED' };

/**
 * The three events of an intent stream answered at once (`execution`, `reply`, `done`), each about
 * the size of the service's, from fixed values: what the two references of `bench:streams` (the
 * bare server and the front door alone) answer, so that only the work before them differs.
 */
export function fixedStreamEvents(message: string): [FixedEvent, FixedEvent, FixedEvent] {
  const id = `exe_${randomUUID().replaceAll('-', '')}`;
  const now = new Date().toISOString();
  const execution = {
    id,
    type: 'CHAT_EXECUTION',
    status: 'RUNNING',
    title: message,
    sourceType: 'super_agent',
    sessionId: 'bench',
    progress: { totalSteps: 1, completedSteps: 0, percent: 0 },
    createdAt: now,
    updatedAt: now,
  };
  return [
    { type: 'execution', execution },
    { type: 'reply', executionId: id, final: true, text: 'Status: 29 tools, 0 connectors' },
    { type: 'done', executionId: id, status: 'COMPLETED' },
  ];
}
