import type { BenchProcess } from './children';
import type { CaseRunner, CpuSource, Measured } from './case-runner';

/**
 * The peer of `bench:mcp`: the official MCP SDK v2 as a bare server (sdk-peer.child.ts) against the
 * service's `/mcp`, in-process and over AMQP, all three taking the same MCP requests from the same
 * client at the same concurrency in one run: JSON-RPC `tools/call` of `mem_set` and `mem_get`
 * alternating, in the stateless 2026-07-28 form (`_meta` envelope in each request,
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers; JSON answers). Part of the default
 * run (run.ts); `BENCH_MCP_CASE=peer` runs it alone (peer-alone.ts).
 */

export const PEER_PROTOCOL_VERSION = '2026-07-28';

/** The `_meta` envelope a 2026-07-28 client puts in every request. */
const envelope = {
  'io.modelcontextprotocol/protocolVersion': PEER_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench-mcp', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const toolCall = (id: number, name: string, args: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: envelope },
  });

/** Connection `i`'s requests: the same keys and values as the service cases' `mem_set`/`mem_get`. */
export const peerBodies = (i: number) => [
  toolCall(1, 'mem_set', { key: `bench:k${i}`, value: { n: i, s: 'hello world' } }),
  toolCall(2, 'mem_get', { key: `bench:k${i}` }),
];

/** The headers of a request of `peerBodies` (the 2026-07-28 routing headers name method and tool). */
export function peerHeaders(body: string): Record<string, string> {
  const name = (JSON.parse(body) as { params: { name: string } }).params.name;
  return {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PEER_PROTOCOL_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
}

/** One target of the comparison: where the load goes, and whose CPU counts as the server's. */
export interface PeerTarget {
  key: 'peer' | 'inProcess' | 'amqp1';
  url: string;
  tokens: string[];
  front: BenchProcess;
  workers: BenchProcess[];
  /** The target's own processes (the server): its CPU per call is their sum. */
  sources: CpuSource[];
}

/** One `mem_set` then `mem_get` through a target: a broken setup fails loudly instead of measuring errors. */
export async function checkPeerTarget(t: PeerTarget): Promise<void> {
  for (const body of peerBodies(0)) {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${t.tokens[0]}`,
        ...peerHeaders(body),
      },
      body,
    });
    const text = await res.text();
    const answer = (() => {
      try {
        return JSON.parse(text) as { result?: { isError?: boolean } };
      } catch {
        return {};
      }
    })();
    if (res.status !== 200 || answer.result === undefined || answer.result.isError) {
      throw new Error(`peer case, ${t.key}: tools/call answered ${res.status} ${text.slice(0, 300)}`);
    }
  }
}

/** The comparison, `rounds` rounds of every target in turn (the order alternating), on `runner`. */
export async function measurePeer(
  runner: CaseRunner,
  targets: readonly PeerTarget[],
  opts: { rounds: number; seconds: number; connections: number; log: (line: string) => void },
): Promise<Record<string, Measured>> {
  for (const t of targets) await checkPeerTarget(t);
  for (let round = 0; round < opts.rounds; round++) {
    opts.log(
      `MCP tools/call (${PEER_PROTOCOL_VERSION}) against the SDK v2 peer, round ${round + 1}/${opts.rounds} (${opts.seconds} s per case, ${opts.connections} connections)`,
    );
    for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
      await runner.measure(
        t.key,
        {
          url: t.url,
          connections: opts.connections,
          seconds: opts.seconds,
          token: (i) => t.tokens[i % t.tokens.length],
          bodies: peerBodies,
          headers: peerHeaders,
        },
        t.sources,
        round === 0,
        [t.front, ...t.workers],
      );
    }
  }
  const out: Record<string, Measured> = {};
  for (const t of targets) out[t.key] = runner.figures(t.key);
  return out;
}

/** Server CPU per call: the target's own processes (not the shared stores, not the client). */
export const SERVER_PROCESSES: Record<PeerTarget['key'], readonly string[]> = {
  peer: ['peer'],
  inProcess: ['service'],
  amqp1: ['api', 'worker1'],
};

export function serverCpu(key: PeerTarget['key'], m: Measured): number {
  return SERVER_PROCESSES[key].reduce((sum, name) => sum + (m.cpuUsPerRequest[name] ?? 0), 0);
}

/** Our figure over the peer's, rounded to 0.01 (a rate > 1 is better for req/s, worse for the others). */
const over = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : NaN);

/** The ratios of the service's cases to the peer's. */
export function peerRatios(peer: Record<string, Measured>) {
  const p = peer.peer;
  const ratios: Record<string, { reqPerSec: number; p50: number; p99: number; serverCpu: number }> = {};
  if (!p) return ratios;
  for (const key of ['inProcess', 'amqp1'] as const) {
    const m = peer[key];
    if (!m) continue;
    ratios[key] = {
      reqPerSec: over(m.requestsPerSec, p.requestsPerSec),
      p50: over(m.p50Ms, p.p50Ms),
      p99: over(m.p99Ms, p.p99Ms),
      serverCpu: over(serverCpu(key, m), serverCpu('peer', p)),
    };
  }
  return ratios;
}

/** The section of bench/results/mcp.md (also printed by `BENCH_MCP_CASE=peer`). */
export function peerMarkdown(
  peer: Record<string, Measured>,
  settings: { rounds: number; seconds: number; connections: number },
): string {
  const labels: Record<PeerTarget['key'], string> = {
    peer: 'SDK v2 peer (`@modelcontextprotocol/server` 2.4.0, bare)',
    inProcess: 'our `/mcp`, in-process (ROLE=all)',
    amqp1: 'our `/mcp`, AMQP, api + 1 worker',
  };
  const ratios = peerRatios(peer);
  const cpu = (m: Measured) =>
    Object.entries(m.cpuUsPerRequest)
      .filter(([, us]) => us !== undefined)
      .map(([name, us]) => `${name} ${us}`)
      .join(', ');
  const rows = (['peer', 'inProcess', 'amqp1'] as const).map((key) => {
    const m = peer[key];
    if (!m) return `| ${labels[key]} | skipped | | | | | | |`;
    const r = ratios[key as 'inProcess' | 'amqp1'];
    const vs = r ? `${r.reqPerSec} / ${r.p99} / ${r.serverCpu}` : '—';
    return `| ${labels[key]} | ${m.requestsPerSec} | ${m.p50Ms} | ${m.p99Ms} | ${serverCpu(key, m)} | ${vs} | ${cpu(m)} | ${m.non2xx + m.errors} |`;
  });
  return `## MCP peer: the official SDK v2, bare

The same MCP client (autocannon, ${settings.connections} connections, the service cases' 50 agents' tokens) sends
JSON-RPC \`tools/call\` of \`mem_set\` and \`mem_get\` alternating, in the stateless ${PEER_PROTOCOL_VERSION} form (the
\`_meta\` envelope in each request; \`MCP-Protocol-Version\`, \`Mcp-Method\`, \`Mcp-Name\` headers; JSON
answers), to three servers in turn: ${settings.rounds} round${settings.rounds === 1 ? '' : 's'} × ${settings.seconds} s each, the order alternating. The peer
is \`createMcpHandler\` of \`@modelcontextprotocol/server\` 2.4.0 (a fresh \`McpServer\` per request,
\`responseMode: 'json'\`) on plain \`node:http\`, its two tools (zod input schemas) making the same Redis
call as ours (one SET EX, one GET, auto-pipelining) after the same bearer check as the bare reference
(the service's HS256 check, no revocation). Server CPU per call: the server's own processes
(peer; service; api + worker), not Redis, RabbitMQ, the document server or the client. The ratios
are ours over the peer's: req/s (higher is better), p99 and server CPU (lower is better).

| server | req/s | p50 ms | p99 ms | server CPU µs/call | vs peer: req/s / p99 / CPU | CPU µs/call by process | errors |
|---|---:|---:|---:|---:|---:|---|---:|
${rows.join('\n')}
`;
}
