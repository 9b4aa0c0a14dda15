import * as amqp from 'amqplib';
import type { ChannelModel } from 'amqplib';
import type { Logger } from '../../logging/logger';
import { WriteWatch } from './amqp-write-watch';

/** Reconnection backoff: capped exponential with jitter. */
export interface BackoffOptions {
  /** Delay before the first retry, in milliseconds. Default 100. */
  initialDelayMs?: number;
  /** Upper bound of the delay, in milliseconds. Default 800 (AMQP_RECONNECT_MAX_MS). */
  maxDelayMs?: number;
}

export interface AmqpConnectionOptions {
  /** `amqp://user:pass@host:port/vhost`; the credentials never leave this object. */
  url: string;
  /** Shown by the broker (`connection_name`); lets operators and tests find this connection. */
  connectionName: string;
  /** AMQP heartbeat, in seconds: a silent peer is declared dead after about twice this. */
  heartbeatSeconds: number;
  /** TCP connect + AMQP handshake timeout, in milliseconds. */
  connectTimeoutMs: number;
  backoff: Required<BackoffOptions>;
  logger: Logger;
  /**
   * Runs on every new connection before it is reported up: opens channels, declares the topology,
   * registers consumers. If it throws, the connection is closed and retried with backoff.
   */
  setup: (model: ChannelModel) => Promise<void>;
  /** Called when an established connection is lost (not on a deliberate close). */
  onLost: (error: Error | undefined) => void;
  /** Called when the broker lifts a block on publishing (resource alarm over). */
  onUnblocked?: () => void;
}

export type ConnectionState = 'up' | 'connecting' | 'down';

/** `amqp://user:secret@host:5672/vh?x=1` → `amqp://host:5672/vh`: safe to show and log. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(invalid AMQP URL)';
  }
}

/** Full-range "equal jitter": half the capped exponential delay, plus a random share of the rest. */
export function backoffDelay(attempt: number, backoff: Required<BackoffOptions>): number {
  const base = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + Math.random() * (base / 2));
}

/**
 * One AMQP connection that keeps itself alive: it connects, runs `setup`, and when the connection
 * drops it retries with capped exponential backoff and jitter until `close()`. It never queues
 * work while down: callers read `model` (undefined unless up) and fail fast.
 */
export class AmqpConnection {
  state: ConnectionState = 'down';
  /** The live connection, set only once `setup` has succeeded. */
  model: ChannelModel | undefined;
  /** True while the broker has blocked publishing (resource alarm): publishes would hang. */
  blocked = false;
  lastError: string | undefined;
  private closed = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private wakeSleep: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private upWaiters: Array<() => void> = [];
  private readonly connectUrl: string;

  constructor(private readonly options: AmqpConnectionOptions) {
    const u = new URL(options.url);
    if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', String(options.heartbeatSeconds));
    this.connectUrl = u.toString();
  }

  /** Starts the connect loop (once). */
  open(): void {
    if (this.running || this.closed) return;
    this.running = this.loop();
  }

  /** Resolves when up; rejects after `timeoutMs` (the loop keeps trying). */
  waitUp(timeoutMs: number): Promise<void> {
    if (this.state === 'up') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.upWaiters = this.upWaiters.filter((w) => w !== done);
        reject(new Error(this.lastError ?? 'not connected'));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.upWaiters.push(done);
    });
  }

  /** Stops reconnecting and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.wakeSleep?.();
    const model = this.model;
    this.model = undefined;
    this.state = 'down';
    if (model) await model.close().catch(() => undefined);
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      this.state = 'connecting';
      const model = await this.connectOnce();
      if (model) {
        const lost = new Promise<Error | undefined>((resolve) => model.once('close', resolve));
        try {
          await this.options.setup(model);
          if (this.closed) {
            await model.close().catch(() => undefined);
            break;
          }
          this.up(model);
          const error = await lost;
          if (this.closed) break;
          this.lost(error);
        } catch (err) {
          this.lastError = `setup failed: ${messageOf(err)}`;
          this.options.logger.warn({ err: this.lastError }, 'amqp setup failed; will retry');
          await model.close().catch(() => undefined);
        }
      }
      if (this.closed) break;
      this.state = 'down';
      this.attempt++;
      await this.sleep(backoffDelay(this.attempt, this.options.backoff));
    }
    this.state = 'down';
  }

  private async connectOnce(): Promise<ChannelModel | undefined> {
    try {
      const model = await amqp.connect(this.connectUrl, {
        noDelay: true, // Nagle would hold small frames back for tens of milliseconds
        timeout: this.options.connectTimeoutMs,
        clientProperties: { connection_name: this.options.connectionName },
      });
      // Without listeners these events would throw; 'close' follows 'error' and drives recovery.
      model.on('error', (err: Error) => {
        this.lastError = messageOf(err);
        this.options.logger.warn({ err: this.lastError }, 'amqp connection error');
      });
      model.on('blocked', (reason: string) => {
        this.blocked = true;
        this.options.logger.warn({ reason }, 'amqp connection blocked by the broker');
      });
      model.on('unblocked', () => {
        this.blocked = false;
        this.options.onUnblocked?.();
      });
      coalesceWrites(model);
      WriteWatch.install(model);
      return model;
    } catch (err) {
      this.lastError = `connect failed: ${messageOf(err)}`;
      if (this.attempt % 10 === 0) this.options.logger.warn({ err: this.lastError }, 'amqp connect failed');
      return undefined;
    }
  }

  private up(model: ChannelModel): void {
    this.model = model;
    this.state = 'up';
    this.blocked = false;
    this.attempt = 0;
    this.lastError = undefined;
    this.options.logger.info('amqp connection up');
    for (const w of this.upWaiters.splice(0)) w();
  }

  private lost(error: Error | undefined): void {
    this.model = undefined;
    this.state = 'down';
    this.lastError = `connection lost: ${error ? messageOf(error) : 'closed'}`;
    this.options.logger.warn({ err: this.lastError }, 'amqp connection lost; reconnecting');
    this.options.onLost(error);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeSleep = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }
}

export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // Belt and braces: never let a URL with credentials through.
  return text.replace(/\/\/[^/@\s]+@/g, '//');
}

/**
 * amqplib writes every frame (publish, ack, ...) to the socket separately, which with `noDelay`
 * means one syscall and one TCP segment per frame: under load that was half of the process's CPU.
 * Its multiplexer drains all channels in one synchronous loop, so corking the socket around that
 * loop sends everything the loop wrote in one `writev`. This reaches into amqplib internals
 * (pinned version); if their shape changes, it does nothing and only speed is lost.
 */
function coalesceWrites(model: ChannelModel): void {
  const internals = (model as unknown as { connection?: { stream?: unknown; muxer?: unknown } }).connection;
  const stream = internals?.stream as { cork?: () => void; uncork?: () => void } | undefined;
  const muxer = internals?.muxer as { _readIncoming?: () => void } | undefined;
  if (!stream || !muxer || typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const drain = muxer._readIncoming;
  if (typeof drain !== 'function') return;
  muxer._readIncoming = function corkedDrain(this: unknown) {
    stream.cork!();
    try {
      drain.call(this);
    } finally {
      stream.uncork!();
    }
  };
}
