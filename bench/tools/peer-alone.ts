import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { deleteDeclaredAmqpNames } from '../support/amqp-names';
import { localRedisAndBroker } from '../support/local-service';
import { CaseRunner, type CpuSource } from './case-runner';
import { killAllChildren, processByName, startProcess, type BenchProcess } from './children';
import { measurePeer, peerMarkdown, peerRatios, type PeerTarget } from './peer-case';
import { cleanRedis } from './redis-cleanup';

/**
 * `BENCH_MCP_CASE=peer`: the MCP peer comparison (peer-case.ts) alone, for a quick run: the SDK v2
 * peer, our `/mcp` in-process and, when RabbitMQ answers, over AMQP (api + 1 worker), on their own
 * document server. Prints the section bench/results/mcp.md would hold and the ratios; writes nothing.
 */

type Ready = { event: string; url: string; tokens: string[]; agentIds: string[] };

export async function runPeerAlone(
  opts: { rounds: number; seconds: number; connections: number; agents: number },
  log: (line: string) => void,
): Promise<void> {
  const load = os.loadavg();
  const { redisUrl, amqpUrl } = await localRedisAndBroker('bench:mcp');
  log(
    `load average ${load.map((x) => x.toFixed(2)).join(' / ')}; the MCP peer case alone; RabbitMQ ${amqpUrl ? 'up' : 'unreachable (AMQP skipped)'}`,
  );
  const runId = randomBytes(4).toString('hex');
  const runPrefix = `bench:mcp:${runId}:`;
  const base = {
    REDIS_URL: redisUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    REQUEST_TIMEOUT_MS: '15000',
  };
  const processes: BenchProcess[] = [];
  const agentIds: string[] = [];
  const declared = { queues: new Set<string>(), exchanges: new Set<string>() };
  const start = (name: string, script: string, env: Record<string, string>) => {
    const p = startProcess(name, script, env);
    processes.push(p);
    void p
      .next<{ event: string; queues?: string[]; exchanges?: string[] }>('declared', 600_000)
      .then((m) => {
        for (const q of m.queues ?? []) declared.queues.add(q);
        for (const e of m.exchanges ?? []) declared.exchanges.add(e);
      })
      .catch(() => undefined);
    return p;
  };
  try {
    const mongo = start('documents', 'mongo.child', {});
    const mongoUrl = (await mongo.next<{ event: string; url: string }>('ready')).url.replace(/\/$/, '');
    const peer = start('peer', 'sdk-peer.child', { ...base, BENCH_REDIS_PREFIX: `${runPrefix}peer:` });
    const agents = String(opts.agents);
    const inProcess = start('in-process', 'service.child', {
      ...base,
      ROLE: 'all',
      AMQP_URL: '',
      MONGODB_URL: `${mongoUrl}/bench_mcp_${runId}_a`,
      BENCH_AGENTS: agents,
      NODE_ID: `bench-mcp-${runId}-a`,
    });
    const cluster = async (): Promise<{ api: BenchProcess; worker: BenchProcess; ready: Ready }> => {
      const prefix = `bench-mcp-${runId}-amqp1`;
      const u = new URL(amqpUrl!);
      if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', '60');
      const common = {
        ...base,
        AMQP_URL: u.toString(),
        AMQP_PREFIX: prefix,
        MONGODB_URL: `${mongoUrl}/bench_mcp_${runId}_amqp1`,
      };
      const worker = start('amqp1 worker 1', 'service.child', {
        ...common,
        ROLE: 'worker',
        NODE_ID: `${prefix}-w1`,
      });
      await worker.next('ready', 90_000);
      const api = start('amqp1 api', 'service.child', {
        ...common,
        ROLE: 'api',
        BENCH_AGENTS: agents,
        NODE_ID: `${prefix}-api`,
      });
      return { api, worker, ready: await api.next<Ready>('ready', 90_000) };
    };
    const [peerReady, inReady, amqp] = await Promise.all([
      peer.next<{ event: string; url: string }>('ready'),
      inProcess.next<Ready>('ready', 90_000),
      amqpUrl ? cluster() : undefined,
    ]);
    agentIds.push(...inReady.agentIds, ...(amqp?.ready.agentIds ?? []));
    const cpu = (name: string, p: BenchProcess): CpuSource => ({ name, cpuMicros: () => p.cpuMicros() });
    const targets: PeerTarget[] = [
      {
        key: 'peer',
        url: peerReady.url,
        tokens: inReady.tokens,
        front: peer,
        workers: [],
        sources: [cpu('peer', peer)],
      },
      {
        key: 'inProcess',
        url: inReady.url,
        tokens: inReady.tokens,
        front: inProcess,
        workers: [],
        sources: [cpu('service', inProcess)],
      },
      ...(amqp
        ? [
            {
              key: 'amqp1' as const,
              url: amqp.ready.url,
              tokens: amqp.ready.tokens,
              front: amqp.api,
              workers: [amqp.worker],
              sources: [cpu('api', amqp.api), cpu('worker1', amqp.worker)],
            },
          ]
        : []),
    ];
    const broker = processByName('beam.smp');
    const redisServer = processByName('redis-server');
    const shared: CpuSource[] = [
      cpu('documents', mongo),
      ...(broker ? [{ name: 'rabbitmq', cpuMicros: () => broker.cpuMicros() }] : []),
      ...(redisServer ? [{ name: 'redis', cpuMicros: () => redisServer.cpuMicros() }] : []),
    ];
    const nodes = processes.filter((p) => p !== mongo);
    const figures = await measurePeer(new CaseRunner(shared, nodes, log), targets, { ...opts, log });
    const high = load[0]! > 2;
    process.stdout.write(
      `\n${high ? `**1-minute load ${load[0]!.toFixed(2)} at start (> 2): other work shared the machine, figures are pessimistic and noisy**\n\n` : ''}${peerMarkdown(figures, opts)}\n`,
    );
    log(`ratios to the peer: ${JSON.stringify(peerRatios(figures))}`);
  } finally {
    log('stopping children');
    await Promise.all(processes.filter((p) => p.name !== 'documents').map((p) => p.stop(15_000)));
    await Promise.all(processes.map((p) => p.stop(5_000)));
    killAllChildren();
    const deleted = await cleanRedis(redisUrl, runPrefix, agentIds).catch(() => -1);
    if (amqpUrl) await deleteDeclaredAmqpNames(amqpUrl, declared, 'bench-mcp-cleanup').catch(() => undefined);
    log(
      `cleaned: ${deleted} Redis keys, ${declared.queues.size} queues, ${declared.exchanges.size} exchanges`,
    );
  }
}
