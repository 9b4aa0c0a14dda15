import { createHash, randomBytes } from 'node:crypto';
import type { Answer, HttpClient, Outcome } from './http-client';

/** The three kinds of traffic; each client sends one kind only, so each has its own recovery time. */
export type OpClass = 'mcp' | 'files' | 'memory';
/** `incr`: `mem_incr` without a key; `incrKeyed`: with an `Idempotency-Key`, retried with it. */
export type Op = 'incr' | 'incrKeyed' | 'set' | 'file' | 'memory';

/** One HTTP request of the load. */
export interface Attempt {
  cls: OpClass;
  op: Op;
  /** The phase running when it was sent. */
  phase: number;
  start: number;
  end: number;
  status: Outcome;
  ok: boolean;
  /** A keyed call's second or later attempt. */
  retry: boolean;
}

/**
 * A `mem_incr` counter and what its client knows of it. A client uses a counter until a call on it
 * fails or the phase changes, then takes a new one: a counter has at most one call of unknown
 * outcome (its last), so its final value must be `acked`, or `acked + uncertain`; anything else
 * is a lost or a doubled increment, in that phase.
 */
export interface CounterRecord {
  client: number;
  key: string;
  keyed: boolean;
  phase: number;
  /** Calls answered 2xx (each added 1). */
  acked: number;
  /** 0 or 1: the last call failed in a way that may have run (5xx without `mayHaveRun: false`, no answer). */
  uncertain: number;
  /** 0 or 1: the last call failed with `mayHaveRun: false` or a 4xx (it must not have run). */
  claimedNotRun: number;
  /** Keyed calls acknowledged after at least one failed attempt. */
  retriedAcked: number;
  /** Acknowledged calls whose `{value}` was not `acked` (the counter already off by then). */
  wrongValues: number;
  /**
   * The failed attempts on this counter, `call <n> at +<ms since the counter was taken>: <status>
   * <code> mayHaveRun=<…>` (the report shows them for a counter found off).
   */
  failures: string[];
  /** When the counter was taken (epoch ms). */
  since: number;
}

export interface SetRecord {
  client: number;
  key: string;
  seq: number;
  phase: number;
}

export interface FileRecord {
  path: string;
  sha256: string;
  size: number;
  phase: number;
}

export interface MemoryRecord {
  namespaceId: string;
  key: string;
  seq: number;
  client: number;
  phase: number;
}

export interface LoadSpec {
  run: string;
  http: HttpClient;
  /** One registered agent per `/mcp` client. */
  agentTokens: readonly string[];
  /** The operator account's bearer token (files and memory). */
  accountToken: string;
  filesClients: number;
  memoryClients: number;
  /** How long a keyed call is retried with its key before its outcome is called unknown. */
  keyedRetryMs: number;
}

/** Wait after a failed request before the next one (a client spinning on instant 503s helps nobody). */
const ERROR_BACKOFF_MS = 20;
/** Wait before a keyed retry; longer after 409 IDEMPOTENCY_KEY_IN_USE (the first attempt still runs). */
const KEYED_RETRY_BACKOFF_MS = 50;
const IN_USE_BACKOFF_MS = 250;
/** Memory entries per namespace: `GET /api/memory` lists at most 1000, and has no cursor. */
const MEMORY_PER_NAMESPACE = 500;
/** Mem values live an hour (the bench deletes them anyway). */
const MEM_TTL_SEC = 3600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isOk = (a: Answer) => typeof a.status === 'number' && a.status >= 200 && a.status < 300;

/** Whether a failed request may have done its work: no answer, or a 5xx that does not say it did not. */
function mayHaveRun(a: Answer): boolean {
  if (typeof a.status !== 'number') return true;
  if (a.status >= 500) return a.json?.mayHaveRun !== false;
  return false;
}

/** Failures a keyed call retries with the same key: no answer, 5xx, 429, 409 IDEMPOTENCY_KEY_IN_USE. */
function retryable(a: Answer): boolean {
  if (typeof a.status !== 'number') return true;
  return (
    a.status >= 500 || a.status === 429 || (a.status === 409 && a.json?.code === 'IDEMPOTENCY_KEY_IN_USE')
  );
}

/**
 * The closed-loop clients of `bench:faults` and their ledger: every request (`attempts`) and every
 * acknowledged write, to be read back at the end. `/mcp` clients (one agent each) rotate
 * `mem_incr`, `mem_set`, a keyed `mem_incr` and `mem_incr`; files clients write new files
 * (`POST /api/files`), memory clients new entries (`POST /api/memory`), each path and key once.
 */
export class Load {
  readonly attempts: Attempt[] = [];
  readonly counters: CounterRecord[] = [];
  readonly sets: SetRecord[] = [];
  readonly files: FileRecord[] = [];
  readonly memories: MemoryRecord[] = [];
  /** The idempotency keys used, with their counters (cleanup of the kernel's dedupe records). */
  readonly keyedCalls: Array<{ client: number; idempotencyKey: string; counterKey: string }> = [];
  /** The phase now running; attempts are counted in the phase they were sent in. */
  phase = 0;
  private stopping = false;
  private loops: Promise<void>[] = [];

  constructor(private readonly spec: LoadSpec) {}

  get clients(): number {
    return this.spec.agentTokens.length + this.spec.filesClients + this.spec.memoryClients;
  }

  start(): void {
    this.spec.agentTokens.forEach((token, i) => this.loops.push(this.mcpClient(i, token)));
    for (let i = 0; i < this.spec.filesClients; i++) this.loops.push(this.filesClient(i));
    for (let i = 0; i < this.spec.memoryClients; i++) this.loops.push(this.memoryClient(i));
  }

  /** No new operation starts; resolves once every one in flight is settled (keyed retries included). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  private record(cls: OpClass, op: Op, a: Answer, phase: number, retry = false): boolean {
    const ok = isOk(a);
    this.attempts.push({ cls, op, phase, start: a.start, end: a.end, status: a.status, ok, retry });
    return ok;
  }

  private async mcpClient(client: number, token: string): Promise<void> {
    const counters = new Map<boolean, CounterRecord>();
    let counterSeq = 0;
    const counterFor = (keyed: boolean): CounterRecord => {
      let c = counters.get(keyed);
      if (!c || c.phase !== this.phase) {
        c = {
          client,
          key: `bf:${keyed ? 'ck' : 'cu'}:${client}:${counterSeq++}`,
          keyed,
          phase: this.phase,
          acked: 0,
          uncertain: 0,
          claimedNotRun: 0,
          retriedAcked: 0,
          wrongValues: 0,
          failures: [],
          since: Date.now(),
        };
        this.counters.push(c);
        counters.set(keyed, c);
      }
      return c;
    };
    const retire = (c: CounterRecord) => {
      if (counters.get(c.keyed) === c) counters.delete(c.keyed);
    };
    const post = (body: unknown, headers?: Record<string, string>) =>
      this.spec.http.send('POST', '/mcp', token, body, headers);

    for (let seq = 0; !this.stopping; seq++) {
      const phase = this.phase;
      const step = seq % 4;
      if (step === 1) {
        const key = `bf:s:${client}:${seq}`;
        const a = await post({ tool: 'mem_set', input: { key, value: { client, seq }, ttl: MEM_TTL_SEC } });
        if (this.record('mcp', 'set', a, phase)) this.sets.push({ client, key, seq, phase });
        else await sleep(ERROR_BACKOFF_MS);
        continue;
      }
      const keyed = step === 2;
      const c = counterFor(keyed);
      const body = { tool: 'mem_incr', input: { key: c.key, by: 1 } };
      if (!keyed) {
        const a = await post(body);
        if (this.record('mcp', 'incr', a, phase)) this.acknowledged(c, a, false);
        else {
          this.noteFailure(c, seq, a);
          this.failed(c, a);
          retire(c);
          await sleep(ERROR_BACKOFF_MS);
        }
        continue;
      }
      // A keyed call: retried with the same key until it is answered, or keyedRetryMs passes.
      const idempotencyKey = `bf-${this.spec.run}-${client}-${seq}`;
      this.keyedCalls.push({ client, idempotencyKey, counterKey: c.key });
      const first = Date.now();
      for (let attempt = 0; ; attempt++) {
        const a = await post(body, { 'idempotency-key': idempotencyKey });
        if (this.record('mcp', 'incrKeyed', a, this.phase, attempt > 0)) {
          this.acknowledged(c, a, attempt > 0);
          break;
        }
        this.noteFailure(c, seq, a);
        if (retryable(a) && Date.now() - first < this.spec.keyedRetryMs) {
          await sleep(a.status === 409 ? IN_USE_BACKOFF_MS : KEYED_RETRY_BACKOFF_MS);
          continue;
        }
        this.failed(c, a);
        retire(c);
        await sleep(ERROR_BACKOFF_MS);
        break;
      }
    }
  }

  private acknowledged(c: CounterRecord, a: Answer, retried: boolean): void {
    c.acked++;
    if (retried) c.retriedAcked++;
    const value = (a.json?.result as { value?: unknown } | undefined)?.value;
    if (value !== c.acked) c.wrongValues++;
  }

  private noteFailure(c: CounterRecord, seq: number, a: Answer): void {
    if (c.failures.length >= 20) return;
    const code = typeof a.json?.code === 'string' ? ` ${a.json.code}` : '';
    const mayHave = a.json?.mayHaveRun === undefined ? '' : ` mayHaveRun=${String(a.json.mayHaveRun)}`;
    c.failures.push(
      `call ${seq} at +${a.start - c.since} ms: ${a.status}${code}${mayHave} after ${a.end - a.start} ms`,
    );
  }

  private failed(c: CounterRecord, a: Answer): void {
    if (mayHaveRun(a)) c.uncertain = 1;
    else c.claimedNotRun = 1;
  }

  private async filesClient(client: number): Promise<void> {
    const dir = `bf-${this.spec.run}`;
    for (let seq = 0; !this.stopping; seq++) {
      const phase = this.phase;
      const path = `${dir}/c${client}-${seq}.txt`;
      const data = `bench:faults ${this.spec.run} client ${client} write ${seq} ${randomBytes(8).toString('hex')}\n`;
      const a = await this.spec.http.send('POST', '/api/files', this.spec.accountToken, { path, data });
      if (this.record('files', 'file', a, phase)) {
        const sha256 = createHash('sha256').update(data).digest('hex');
        this.files.push({ path, sha256, size: Buffer.byteLength(data), phase });
      } else await sleep(ERROR_BACKOFF_MS);
    }
  }

  private async memoryClient(client: number): Promise<void> {
    for (let seq = 0; !this.stopping; seq++) {
      const phase = this.phase;
      const namespaceId = `bf-${this.spec.run}-c${client}-b${Math.floor(seq / MEMORY_PER_NAMESPACE)}`;
      const key = `k${seq}`;
      const a = await this.spec.http.send('POST', '/api/memory', this.spec.accountToken, {
        key,
        content: { run: this.spec.run, client, seq },
        namespaceType: 'app',
        namespaceId,
      });
      if (this.record('memory', 'memory', a, phase))
        this.memories.push({ namespaceId, key, seq, client, phase });
      else await sleep(ERROR_BACKOFF_MS);
    }
  }
}
