import type { Envelope } from '../../schemas/envelope';
import { createActorSystem, type ActorSystem } from '../../src/kernel';
import { silentLogger } from '../../src/logging/logger';
import { AmqpTransport } from '../../src/transport/amqp/amqp.transport';
import { InProcessBus, InProcessTransport } from '../../src/transport/in-process.transport';
import { Redis } from 'ioredis';
import { findProcess, processCpuMicros, startChild, type BenchChild, type ChildEvent } from './children';
import type { BenchCleanup } from './cleanup';
import { echoActor, echoBody, ECHO_TYPE } from './echo-actor';
import { closedLoop, ownCpuMicros, Recorder, type CpuProbes, type LoadSummary } from './measure';

/** Pause before each measured round, for the previous case's last messages to clear. */
const SETTLE_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One kernel case: how to send one request, and which processes' CPU to count. */
interface KernelCase {
  key: string;
  label: string;
  ask: (lane: number, n: number) => Promise<unknown>;
  cpu: CpuProbes;
  recorder: Recorder;
}

export interface KernelBenchOptions {
  amqpUrl?: string;
  /** Redis for the shared dedupe cases; unset = the memory cache (nothing really shared). */
  redisUrl?: string;
  cacheNamespace: string;
  cleanup: BenchCleanup;
  lanes: number;
  warmupMs: number;
  roundMs: number;
  rounds: number;
  log: (line: string) => void;
}

export interface KernelCaseResult extends LoadSummary {
  key: string;
  label: string;
}

export interface KernelBenchResult {
  cases: KernelCaseResult[];
  /** What backed the shared dedupe cases: 'redis', 'memory' (not shared), or absent (no AMQP). */
  sharedDedupeCache?: string;
}

/**
 * Request/reply through the kernel: `system.ask` to a trivial echo actor, `lanes` requests
 * outstanding, one address per lane. Cases are run in interleaved rounds (each case once per
 * round, in a rotating order) so that a burst of other work on the machine spreads over all of them.
 */
export async function runKernelBench(options: KernelBenchOptions): Promise<KernelBenchResult> {
  const { cleanup, log } = options;
  const cases: KernelCase[] = [];
  const bench = { bench: ownCpuMicros };

  // In-process: one node asking itself (ROLE=all without a broker).
  const bus = new InProcessBus();
  const inProcess = createActorSystem({
    transport: new InProcessTransport('bench-inproc', bus),
    logger: silentLogger,
  });
  await inProcess.register(echoActor('echo'));
  await inProcess.start();
  cleanup.step('in-process system', () => inProcess.stop(2000));
  cases.push({
    key: 'inProcess',
    label: 'kernel, in-process transport (one node asks itself)',
    ask: (lane, n) => inProcess.ask(`echo:${lane}`, ECHO_TYPE, echoBody(n)),
    cpu: bench,
    recorder: new Recorder(),
  });

  let sharedDedupeCache: string | undefined;
  if (options.amqpUrl) {
    const url = options.amqpUrl;
    const prefix = cleanup.prefix;
    // The broker's (and Redis's) CPU per request too, when they run here: where the time goes.
    const broker = brokerCpuProbe();
    let redis: Redis | undefined;
    if (options.redisUrl) {
      const client = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect().then(
        () => (redis = client),
        () => client.disconnect(),
      );
      cleanup.step('redis cpu probe', async () => client.disconnect());
    }
    const redisCpu: CpuProbes = redis ? { redis: () => redisCpuMicros(redis!) } : {};
    const amqpNode = (nodeId: string) => {
      cleanup.node(nodeId);
      return new AmqpTransport({ url, prefix, nodeId, connectionName: `${prefix}:${nodeId}` });
    };

    // Reference: the raw transport, no kernel (as bench/transport/amqp-roundtrip.ts, NODES=2).
    const rawApi = amqpNode('raw-api');
    const rawWorker = amqpNode('raw-worker');
    await rawApi.start();
    await rawWorker.start();
    cleanup.step('raw transports', async () => {
      await rawApi.stop(1000);
      await rawWorker.stop(1000);
    });
    cleanup.kind('echo-raw');
    await rawWorker.consume('echo-raw', async ({ envelope }) => {
      await rawWorker.reply(envelope.replyTo!, {
        v: 1,
        id: `${envelope.id}.r`,
        type: 'kernel.reply',
        to: envelope.replyTo!,
        correlationId: envelope.id,
        deadline: envelope.deadline,
        attempt: 1,
        body: { kind: 'reply', value: envelope.body },
      });
      return 'ack';
    });
    const waiting = new Map<string, () => void>();
    rawApi.onReply((e) => {
      const done = waiting.get(e.correlationId!);
      if (done) {
        waiting.delete(e.correlationId!);
        done();
      }
    });
    let rawSeq = 0;
    const rawAsk = (lane: number, n: number) =>
      new Promise<void>((resolve, reject) => {
        const id = `raw-${rawSeq++}`;
        const envelope: Envelope = {
          v: 1,
          id,
          type: ECHO_TYPE,
          to: `echo-raw:${lane}`,
          replyTo: rawApi.nodeId,
          deadline: Date.now() + 15_000,
          attempt: 1,
          body: echoBody(n),
        };
        waiting.set(id, resolve);
        rawApi.send(envelope).catch(reject);
      });
    cases.push({
      key: 'amqpRawTransport',
      label: 'reference: raw AMQP transport round trip, no kernel (two transports, one process)',
      ask: rawAsk,
      cpu: { ...bench, ...broker },
      recorder: new Recorder(),
    });

    // The api node: a pure client (registers no kind), as the front door.
    const api = createActorSystem({ transport: amqpNode('api'), logger: silentLogger });
    await api.start();
    cleanup.step('api system', () => api.stop(2000));

    // A worker node in the same process (shares the api's event loop).
    const sameWorker: ActorSystem = createActorSystem({
      transport: amqpNode('worker-same'),
      logger: silentLogger,
    });
    cleanup.kind('echo-same');
    await sameWorker.register(echoActor('echo-same'));
    await sameWorker.start();
    cleanup.step('same-process worker', () => sameWorker.stop(2000));
    cases.push({
      key: 'amqpOneProcess',
      label: 'kernel over AMQP, api and worker systems in one process',
      ask: (lane, n) => api.ask(`echo-same:${lane}`, ECHO_TYPE, echoBody(n)),
      cpu: { ...bench, ...broker },
      recorder: new Recorder(),
    });

    // Worker nodes in child processes (production layout), with each dedupe configuration.
    const children: Array<{ key: string; label: string; kind: string; env: Record<string, string> }> = [
      {
        key: 'amqpWorkerProcess',
        label: 'kernel over AMQP, worker in a child process (memory dedupe)',
        kind: 'echo-child',
        env: { DEDUPE: 'memory' },
      },
      {
        key: 'amqpWorkerProcessLayered',
        label:
          "kernel over AMQP, worker in a child process, shared dedupe store (layered; kind dedupe 'local')",
        kind: 'echo-layered',
        env: { DEDUPE: 'layered', KIND_DEDUPE: 'local' },
      },
      {
        key: 'amqpWorkerProcessShared',
        label:
          "kernel over AMQP, worker in a child process, shared dedupe store, kind dedupe 'shared' (every message claimed and completed in the cache)",
        kind: 'echo-shared',
        env: { DEDUPE: 'layered', KIND_DEDUPE: 'shared' },
      },
    ];
    const started: Array<{ spec: (typeof children)[number]; child: BenchChild }> = [];
    for (const spec of children) {
      const nodeId = `worker-${spec.kind}`;
      cleanup.node(nodeId);
      cleanup.kind(spec.kind);
      const child = startChild(nodeId, 'echo-worker.child', {
        AMQP_URL: url,
        AMQP_PREFIX: prefix,
        NODE_ID: nodeId,
        KIND: spec.kind,
        CACHE_NAMESPACE: options.cacheNamespace,
        REDIS_URL: options.redisUrl ?? '',
        ...spec.env,
      });
      cleanup.step(`child ${nodeId}`, () => child.stop());
      started.push({ spec, child });
    }
    if (options.redisUrl) cleanup.redisKeys(options.redisUrl, options.cacheNamespace);
    for (const { spec, child } of started) {
      const ready = await child.waitFor<ChildEvent & { cache: string }>('ready');
      if (spec.env.DEDUPE === 'layered') sharedDedupeCache = ready.cache;
      cases.push({
        key: spec.key,
        label: spec.label,
        ask: (lane, n) => api.ask(`${spec.kind}:${lane}`, ECHO_TYPE, echoBody(n)),
        cpu: {
          bench: ownCpuMicros,
          worker: child.cpuMicros,
          ...broker,
          ...(spec.env.DEDUPE === 'layered' ? redisCpu : {}),
        },
        recorder: new Recorder(),
      });
    }
  }

  for (const c of cases) {
    log(`kernel: warm-up ${c.key}`);
    await closedLoop(c.ask, options.lanes, options.warmupMs);
  }
  for (let round = 1; round <= options.rounds; round++) {
    // Each round starts one case later, so no case always follows the same one (the broker is
    // still settling the previous case's queue for a moment), and a short pause between cases.
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(i + round - 1) % cases.length];
      log(`kernel: round ${round}/${options.rounds} ${c.key}`);
      await sleep(SETTLE_MS);
      await closedLoop(c.ask, options.lanes, options.roundMs, c.recorder, c.cpu);
    }
  }
  return {
    cases: cases.map((c) => ({ key: c.key, label: c.label, ...c.recorder.summary() })),
    sharedDedupeCache,
  };
}

/** The local RabbitMQ's CPU (`beam.smp`), when it runs on this machine and can be found. */
export function brokerCpuProbe(): CpuProbes {
  const pid = findProcess('beam.smp');
  return pid ? { rabbitmq: () => processCpuMicros(pid) } : {};
}

/** Redis's own CPU so far (INFO cpu), in µs. */
async function redisCpuMicros(redis: Redis): Promise<number | undefined> {
  try {
    const info = await redis.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1]);
    const seconds = field('used_cpu_sys') + field('used_cpu_user');
    return Number.isFinite(seconds) ? Math.round(seconds * 1e6) : undefined;
  } catch {
    return undefined;
  }
}
