import { EMPTY, type Observable } from 'rxjs';
import type { Envelope } from '../../../../schemas/envelope';
import { errors } from '../../../../schemas/errors';
import type { ActorSystemApi, RequestOptions } from '../../../../src/kernel/kernel.types';

type AskHandler = (body: unknown, options: RequestOptions | undefined) => unknown;
type StreamHandler = (body: unknown, options: RequestOptions | undefined) => Observable<unknown>;

/** One call received by the fake, for assertions. */
export interface FakeCall {
  method: 'ask' | 'tell' | 'stream' | 'broadcast';
  to: string;
  type: string;
  body: unknown;
  options?: RequestOptions;
}

/**
 * An in-memory `ActorSystemApi` for front-door tests: answers are registered per `to` + `type`;
 * an unregistered address rejects with UNAVAILABLE, as a system with no such actor would time out.
 */
export class FakeSystem implements ActorSystemApi {
  readonly nodeId = 'test-node';
  readonly calls: FakeCall[] = [];
  private readonly asks = new Map<string, AskHandler>();
  private readonly streams = new Map<string, StreamHandler>();

  onAsk(to: string, type: string, handler: AskHandler): this {
    this.asks.set(`${to}|${type}`, handler);
    return this;
  }

  onStream(to: string, type: string, handler: StreamHandler): this {
    this.streams.set(`${to}|${type}`, handler);
    return this;
  }

  async ask<T = unknown>(to: string, type: string, body: unknown, options?: RequestOptions): Promise<T> {
    this.calls.push({ method: 'ask', to, type, body, options });
    const handler = this.asks.get(`${to}|${type}`);
    if (!handler) throw errors.unavailable(`no actor answers ${type} at ${to}`);
    return (await handler(body, options)) as T;
  }

  async tell(to: string, type: string, body: unknown, options?: RequestOptions): Promise<void> {
    this.calls.push({ method: 'tell', to, type, body, options });
  }

  stream<T = unknown>(to: string, type: string, body: unknown, options?: RequestOptions): Observable<T> {
    this.calls.push({ method: 'stream', to, type, body, options });
    const handler = this.streams.get(`${to}|${type}`);
    return (handler ? handler(body, options) : EMPTY) as Observable<T>;
  }

  async broadcast(type: string, body: unknown): Promise<void> {
    this.calls.push({ method: 'broadcast', to: '*', type, body });
  }

  onBroadcast(_type: string, _listener: (body: unknown, envelope: Envelope) => void): () => void {
    return () => undefined;
  }
}
