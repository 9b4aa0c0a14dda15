import { onStopRequest, tell } from '../support/child-ipc';
import { CuttableProxy } from './tcp-proxy';

/**
 * The proxies of `bench:faults` in a process of their own, so that the load generator's event loop
 * never delays the cluster's broker and Redis traffic. `BENCH_PROXY_TARGETS` is a JSON object
 * `{name: serviceUrl}` (`amqp`, `redis`). IPC: `{event: 'ready', ports: {name: port}}`; on
 * `{cmd: 'cut' | 'restore', name, seq}` it answers `{event: '<cmd>:<name>:<seq>', at}` (epoch ms,
 * once done); stops on `{cmd: 'stop'}` or when the parent goes away.
 */
async function main(): Promise<void> {
  const targets = JSON.parse(process.env.BENCH_PROXY_TARGETS ?? '{}') as Record<string, string>;
  const defaults: Record<string, number> = { amqp: 5672, redis: 6379 };
  const proxies = new Map<string, CuttableProxy>();
  for (const [name, url] of Object.entries(targets)) {
    proxies.set(name, await CuttableProxy.start(new URL(url), defaults[name] ?? 0));
  }
  process.on('message', (m: { cmd?: string; name?: string; seq?: number }) => {
    const proxy = m?.name === undefined ? undefined : proxies.get(m.name);
    if (!proxy || (m.cmd !== 'cut' && m.cmd !== 'restore')) return;
    const done = m.cmd === 'cut' ? proxy.cut() : proxy.restore();
    void done.then(() =>
      tell({ event: `${m.cmd}:${m.name}:${m.seq}`, at: Date.now(), accepted: proxy.accepted }),
    );
  });
  onStopRequest(async () => {
    await Promise.all([...proxies.values()].map((p) => p.close()));
  });
  await tell({
    event: 'ready',
    ports: Object.fromEntries([...proxies].map(([name, p]) => [name, p.port])),
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:faults proxy: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
