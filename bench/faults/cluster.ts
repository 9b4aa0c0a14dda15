import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { ClaimsSealer } from '../../actors/identity/sealed-claims';
import { freeLoopbackPort } from '../support/local-service';
import { killAllChildren, startProcess, type BenchProcess } from '../tools/children';
import { DocumentServer } from './document-server';

/** Where the cluster's parts are and how to reach them. */
export interface ClusterSpec {
  run: string;
  /** The real services (loopback); the nodes reach them through the bench's proxies. */
  amqpUrl: string;
  redisUrl: string;
  /** Temporary directory of the run: `logs/` and the document server's `documents/`. */
  dir: string;
  jwtSecret: string;
  maxMessageBytes: number;
}

/**
 * The cluster `bench:faults` loads and breaks: a proxy process (RabbitMQ and Redis behind
 * cuttable TCP proxies), the shared document server (a fixed port, a data directory), two
 * `ROLE=worker` nodes and one `ROLE=api` node, each a child process logging to its own file
 * under `<dir>/logs`. Every process is started here and killed by its pid.
 */
export class Cluster {
  readonly prefix: string;
  readonly documents: DocumentServer;
  proxy!: BenchProcess;
  api!: BenchProcess;
  apiUrl = '';
  readonly workers: BenchProcess[] = [];
  /** Node ids of the workers killed with -9 (their reply and broadcast queues are left behind). */
  readonly killedNodeIds: string[] = [];
  /** Every AMQP name the nodes reported declaring (on their way out). */
  readonly declared = { queues: new Set<string>(), exchanges: new Set<string>() };
  private readonly processes: BenchProcess[] = [];
  private readonly nodeIds = new Map<BenchProcess, string>();
  private proxySeq = 0;
  private workerSeq = 0;
  private readonly logs: number[] = [];
  private env: Record<string, string> = {};

  private constructor(
    private readonly spec: ClusterSpec,
    documentsPort: number,
  ) {
    this.prefix = `bench-faults-${spec.run}`;
    mkdirSync(path.join(spec.dir, 'logs'), { recursive: true });
    this.documents = new DocumentServer(
      path.join(spec.dir, 'documents'),
      documentsPort,
      this.logFile('documents'),
    );
  }

  static async create(spec: ClusterSpec): Promise<Cluster> {
    return new Cluster(spec, await freeLoopbackPort());
  }

  /** The run's database on the document server. */
  get documentsDbUrl(): string {
    return `${this.documents.url}/bench_faults_${this.spec.run}`;
  }

  get logDir(): string {
    return path.join(this.spec.dir, 'logs');
  }

  private logFile(name: string): number {
    const fd = openSync(path.join(this.spec.dir, 'logs', `${name}.log`), 'a');
    this.logs.push(fd);
    return fd;
  }

  private start(name: string, script: string, env: Record<string, string>): BenchProcess {
    const file = name.replace(/\s+/g, '-');
    const p = startProcess(
      name,
      `../faults/${script}`,
      { ...env, BENCH_NODE_DIR: path.join(this.spec.dir, 'nodes', file) },
      [],
      this.logFile(file),
    );
    this.processes.push(p);
    void p
      .next<{ event: string; queues?: string[]; exchanges?: string[] }>('declared', 3_600_000)
      .then((m) => {
        for (const q of m.queues ?? []) this.declared.queues.add(q);
        for (const e of m.exchanges ?? []) this.declared.exchanges.add(e);
      })
      .catch(() => undefined);
    return p;
  }

  /** Proxies, document server, workers, then the api node (the workers host the actors it needs at once). */
  async up(): Promise<void> {
    this.proxy = this.start('proxy', 'proxy.child', {
      BENCH_PROXY_TARGETS: JSON.stringify({ amqp: this.spec.amqpUrl, redis: this.spec.redisUrl }),
    });
    const { ports } = await this.proxy.next<{ event: string; ports: { amqp: number; redis: number } }>(
      'ready',
    );
    await this.documents.start();
    const through = (url: string, port: number) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    };
    this.env = {
      AMQP_URL: through(this.spec.amqpUrl, ports.amqp),
      AMQP_PREFIX: this.prefix,
      AMQP_MAX_MESSAGE_BYTES: String(this.spec.maxMessageBytes),
      REDIS_URL: through(this.spec.redisUrl, ports.redis),
      MONGODB_URL: this.documentsDbUrl,
      JWT_SECRET: this.spec.jwtSecret,
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      HOST: '127.0.0.1',
      SANDBOX_THREADS: '1',
    };
    await Promise.all([this.startWorker(), this.startWorker()]);
    this.api = this.start('api', 'node.child', { ...this.env, ROLE: 'api', NODE_ID: `${this.prefix}-api` });
    this.nodeIds.set(this.api, `${this.prefix}-api`);
    this.apiUrl = (await this.api.next<{ event: string; url: string }>('ready', 90_000)).url;
  }

  /** Starts a worker node and resolves once it consumes. */
  async startWorker(): Promise<BenchProcess> {
    const nodeId = `${this.prefix}-w${++this.workerSeq}`;
    const worker = this.start(`worker ${this.workerSeq}`, 'node.child', {
      ...this.env,
      ROLE: 'worker',
      NODE_ID: nodeId,
    });
    this.nodeIds.set(worker, nodeId);
    this.workers.push(worker);
    await worker.next('ready', 90_000);
    return worker;
  }

  /** `kill -9` of a worker, by its pid; resolves once it is gone. */
  async killWorker(worker: BenchProcess): Promise<void> {
    process.kill(worker.pid, 'SIGKILL');
    await worker.exited;
    this.workers.splice(this.workers.indexOf(worker), 1);
    this.killedNodeIds.push(this.nodeIds.get(worker) ?? '');
  }

  /** Cuts (`cut`) or restores a proxy; resolves with when it was done (epoch ms). */
  async proxyCommand(cmd: 'cut' | 'restore', name: 'amqp' | 'redis'): Promise<number> {
    const seq = ++this.proxySeq;
    this.proxy.send({ cmd, name, seq });
    return (await this.proxy.next<{ event: string; at: number }>(`${cmd}:${name}:${seq}`, 10_000)).at;
  }

  /** The internal id (`sub`) sealed in a token of this run's secret. */
  subjectOf(token: string): string {
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const sub = new ClaimsSealer(this.spec.jwtSecret).claimsOf(payload)?.sub;
    if (typeof sub !== 'string') throw new Error('a token of the run without a subject');
    return sub;
  }

  /** Registers `n` agents (`POST /register`): their bearer tokens and internal ids. */
  async registerAgents(n: number): Promise<{ tokens: string[]; ids: string[] }> {
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${this.apiUrl}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `bench-faults-${this.spec.run}-${i}` }),
      });
      const body = (await res.json()) as { token?: string };
      if (res.status !== 201 || !body.token)
        throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
      tokens.push(body.token);
    }
    return { tokens, ids: tokens.map((t) => this.subjectOf(t)) };
  }

  /** Signs an operator account up (`POST /api/signup`): its bearer token and internal id. */
  async signUp(): Promise<{ token: string; id: string }> {
    const res = await fetch(`${this.apiUrl}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `bench-faults-${this.spec.run}-${randomBytes(4).toString('hex')}@example.com`,
        password: `bench faults ${randomBytes(8).toString('hex')}`,
        accountType: 'retail',
        selectedPlan: 'retail_pro',
      }),
    });
    const body = (await res.json()) as { credentials?: { bearerToken?: string | null } };
    const token = body.credentials?.bearerToken;
    if (res.status !== 201 || !token) throw new Error(`signup: ${res.status} ${JSON.stringify(body)}`);
    return { token, id: this.subjectOf(token) };
  }

  /**
   * Stops every process: nodes first (asked, so they report what they declared; SIGKILL by pid
   * after a grace), then the proxies and the document server. The AMQP names of killed workers'
   * own queues are added to `declared`.
   */
  async down(): Promise<void> {
    const nodes = this.processes.filter((p) => p !== this.proxy);
    await Promise.all(nodes.map((p) => p.stop(15_000)));
    if (this.proxy) await this.proxy.stop(5_000);
    await this.documents.stop();
    for (const nodeId of this.killedNodeIds) {
      this.declared.queues.add(`${this.prefix}.reply.${nodeId}`);
      this.declared.queues.add(`${this.prefix}.broadcast.${nodeId}`);
    }
    for (const fd of this.logs.splice(0)) closeSync(fd);
  }

  /** Last resort (errors, watchdog, signals): SIGKILL every process still running, by pid. */
  killAll(): void {
    // Only children still running (a pid that exited may belong to another process by now).
    killAllChildren();
    this.documents.killNow();
  }
}
