import type { Logger } from '../logging/logger';
import type { ActivationContext, ActorRef } from './actor-definition';
import type { KernelRuntime } from './kernel-runtime';
import type { ActorSystemApi, RequestOptions } from './kernel.types';
import { Mailbox } from './mailbox';

/** Job that passivates an actor; it goes through the mailbox so it never overlaps a turn. */
export const PASSIVATE = Symbol('passivate');

/**
 * One actor in memory on this node: its mailbox and, once activated, its state. Created on the
 * first message for its address and dropped after passivation.
 */
export class Activation<J = unknown> implements ActivationContext {
  state: unknown = undefined;
  activated = false;
  /** A passivation job is queued or running. */
  passivating = false;
  /** Deferred works of this actor still running (an actor with any is not idle). */
  deferred = 0;
  lastActive = Date.now();
  readonly mailbox: Mailbox<J | typeof PASSIVATE>;
  private childLogger?: Logger;
  private ref?: ActorRef;

  constructor(
    readonly kind: string,
    readonly address: string,
    readonly id: string,
    private readonly runtime: KernelRuntime,
    run: (activation: Activation<J>, job: J | typeof PASSIVATE) => Promise<void>,
  ) {
    this.mailbox = new Mailbox(
      (job) => run(this, job),
      (error) => runtime.logger.error({ err: error, address }, 'kernel: mailbox job threw'),
    );
  }

  get system(): ActorSystemApi {
    return this.runtime.api;
  }

  get logger(): Logger {
    // Created on first use: most turns never log, and a pino child per actor is not free.
    return (this.childLogger ??= this.runtime.logger.child({ actor: this.address }));
  }

  get self(): ActorRef {
    if (!this.ref) {
      const { runtime, address } = this;
      this.ref = {
        address,
        tell: (type: string, body: unknown, options?: RequestOptions) =>
          runtime.send(address, address, type, body, options, false),
        ask: <T>(type: string, body: unknown, options?: RequestOptions) =>
          runtime.send<T>(address, address, type, body, options, true),
      };
    }
    return this.ref;
  }

  /** True when nothing is queued, running or deferred. */
  get idle(): boolean {
    return this.mailbox.idle && this.deferred === 0;
  }
}
