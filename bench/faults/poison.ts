import * as amqp from 'amqplib';
import { DEAD_LETTER_DETAIL_HEADER, DEAD_LETTER_REASON_HEADER } from '../../src/transport/amqp/amqp-codec';

/** A message `bench:faults` puts on an actor queue, and what the transport must do with it. */
export interface PoisonMessage {
  name: string;
  content: Buffer;
  /** `x-ars-dead-letter-reason` it must be dead-lettered with. */
  reason: 'malformed' | 'rejected';
}

/** What the run put on the queue: the poison, and the good commands sent beside it in one batch. */
export interface PoisonPlan {
  messages: PoisonMessage[];
  /** Poison elements of the batch, each dead-lettered alone as its own bytes (reason `malformed`). */
  batchElements: PoisonMessage[];
  /** The good commands of the batch: each adds 1 to this `mem_incr` key of the agent. */
  neighbourKey: string;
  neighbours: number;
}

/** The poison: 5,000 levels of array, 10 KB (it used to overflow the consumer's stack). */
const DEEP = '['.repeat(5000) + ']'.repeat(5000);

/**
 * The poison of the run, for the queue of the `agent` kind (the one every `/mcp` call goes
 * through): a deep-nested array; invalid UTF-8; an envelope of another version (`v: 2`); a
 * message over the workers' `AMQP_MAX_MESSAGE_BYTES` (`maxBytes`); a valid envelope whose body the
 * kind's schema rejects; and a batch (a JSON array) where a deep array and a `v: 2` envelope sit
 * between three good `agent.invokeTool` commands, fire-and-forget, each adding 1 to
 * `neighbourKey` in the agent's memory.
 */
export function poisonPlan(run: string, agentId: string, maxBytes: number): PoisonPlan {
  const now = Date.now();
  const envelope = (id: string, body: unknown) => ({
    v: 1,
    id: `bench-faults-${run}-${id}`,
    type: 'agent.invokeTool',
    to: `agent:${agentId}`,
    deadline: now + 120_000,
    attempt: 1,
    auth: { subjectType: 'agent', agentId, via: 'bearer' },
    body,
  });
  const neighbourKey = `bf:poison:neighbours`;
  const neighbour = (i: number) =>
    JSON.stringify(
      envelope(`neighbour-${i}`, {
        tool: 'mem_incr',
        kind: 'platform',
        input: { key: neighbourKey, by: 1 },
        invokedByType: 'agent',
      }),
    );
  const otherVersion = JSON.stringify({ ...envelope('v2', { tool: 'mem_get', input: { key: 'x' } }), v: 2 });
  const batchV2 = JSON.stringify({ ...envelope('batch-v2', { tool: 'mem_get', input: { key: 'x' } }), v: 2 });
  const hugeText = `{"v":1,"pad":"${'x'.repeat(maxBytes + 1024)}"}`;
  return {
    messages: [
      { name: 'deep-nested array (5,000 levels)', content: Buffer.from(DEEP), reason: 'malformed' },
      {
        name: 'invalid UTF-8',
        content: Buffer.concat([
          Buffer.from('{"v":1,"id":"'),
          Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
          Buffer.from('"}'),
        ]),
        reason: 'malformed',
      },
      { name: 'wrong envelope version (v: 2)', content: Buffer.from(otherVersion), reason: 'malformed' },
      {
        name: `huge (${(hugeText.length / 1048576).toFixed(1)} MiB, over the ${(maxBytes / 1048576).toFixed(0)} MiB limit)`,
        content: Buffer.from(hugeText),
        reason: 'malformed',
      },
      {
        name: 'a body its schema rejects',
        content: Buffer.from(JSON.stringify(envelope('rejected', { tool: 42 }))),
        reason: 'rejected',
      },
      {
        name: 'batch: 3 good commands around a deep array and a v: 2 envelope',
        content: Buffer.from(`[${neighbour(1)},${DEEP},${neighbour(2)},${batchV2},${neighbour(3)}]`),
        reason: 'malformed',
      },
    ],
    batchElements: [
      { name: 'batch element: deep-nested array', content: Buffer.from(DEEP), reason: 'malformed' },
      { name: 'batch element: v: 2 envelope', content: Buffer.from(batchV2), reason: 'malformed' },
    ],
    neighbourKey,
    neighbours: 3,
  };
}

/** Publishes the poison to the queue (persistent, confirmed) and resolves with when it was done. */
export async function injectPoison(
  url: string,
  queue: string,
  messages: readonly PoisonMessage[],
): Promise<number> {
  const connection = await amqp.connect(url, {
    clientProperties: { connection_name: 'bench-faults-poison' },
  });
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createConfirmChannel();
    for (const m of messages) channel.sendToQueue(queue, m.content, { persistent: true });
    await channel.waitForConfirms();
    return Date.now();
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** One poison message and whether it reached the dead-letter queue with its reason. */
export interface PoisonOutcome {
  name: string;
  expectedReason: string;
  deadLettered: boolean;
  reason?: string;
  detail?: string;
}

export interface DeadLetterReport {
  /** The batch itself is not dead-lettered (it has good commands): only its two poison elements. */
  poison: PoisonOutcome[];
  /** Dead letters that are not the bench's poison: commands of the load, lost to a fault. */
  others: Array<{ queue: string; reason?: string; detail?: string; bytes: number }>;
}

const header = (m: amqp.GetMessage, name: string) => {
  const v = m.properties.headers?.[name] as unknown;
  return v === undefined ? undefined : String(v);
};

/**
 * Empties the dead-letter queues of the run (`queues`: every `<prefix>.dlq.<kind>`) and sorts
 * what they held: each poison message (the batch counts by its two poison elements) found with
 * its reason, and anything else.
 */
export async function readDeadLetters(
  url: string,
  queues: readonly string[],
  plan: PoisonPlan | undefined,
): Promise<DeadLetterReport> {
  const expected = plan
    ? [...plan.messages.filter((m) => !m.name.startsWith('batch:')), ...plan.batchElements]
    : [];
  const poison: PoisonOutcome[] = expected.map((m) => ({
    name: m.name,
    expectedReason: m.reason,
    deadLettered: false,
  }));
  const others: DeadLetterReport['others'] = [];
  const connection = await amqp.connect(url, { clientProperties: { connection_name: 'bench-faults-dlq' } });
  connection.on('error', () => undefined);
  try {
    for (const queue of queues) {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      try {
        for (
          let m = await channel.get(queue, { noAck: true });
          m;
          m = await channel.get(queue, { noAck: true })
        ) {
          const reason = header(m, DEAD_LETTER_REASON_HEADER);
          const detail = header(m, DEAD_LETTER_DETAIL_HEADER);
          const i = expected.findIndex((p, j) => !poison[j].deadLettered && p.content.equals(m.content));
          if (i >= 0) Object.assign(poison[i], { deadLettered: true, reason, detail: detail?.slice(0, 160) });
          else others.push({ queue, reason, detail: detail?.slice(0, 160), bytes: m.content.length });
        }
      } catch {
        // The queue was never declared (no dead letter of that kind): nothing to read.
      } finally {
        await channel.close().catch(() => undefined);
      }
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
  return { poison, others };
}
