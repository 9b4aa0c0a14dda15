import { randomUUID } from 'node:crypto';
import type { Envelope } from '../../schemas/envelope';

/** A valid command envelope to `to` (an actor address `kind:id`), with a fresh id and a 30 s deadline. */
export function commandEnvelope(to: string, overrides: Partial<Envelope> = {}): Envelope {
  return {
    v: 1,
    id: `env_${randomUUID()}`,
    type: 'test.ping',
    to,
    deadline: Date.now() + 30000,
    attempt: 1,
    body: {},
    ...overrides,
  };
}

/** A unique actor kind per test, so that tests sharing a cluster never share a queue. */
export function uniqueKind(label = 'k'): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}
