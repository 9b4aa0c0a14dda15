import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { isAppError } from '../../schemas/errors';
import type { TaskHost } from './sandbox-call';

/**
 * What a run may ask of its host (`ExecuteOptions.host`): the guest's `platform.call(name, input)`
 * reaches `call(name, input, signal)` here, on the main thread. It resolves a JSON value (the
 * guest gets it back) or rejects (the guest gets a `PlatformError` with the error's `code` and
 * message; anything but an `AppError` is `INTERNAL_ERROR`, "Internal error"). `signal` aborts
 * when the run ends (whatever the reason), so a call still running then can stop.
 */
export interface HostCalls {
  call(name: string, input: unknown, signal: AbortSignal): Promise<unknown>;
  /** Most calls one run may make. Default 50. */
  maxCalls?: number;
}

/** Limits of host calls (docs/sandbox.md, "Host calls"). */
export const HOST_CALL_LIMITS = Object.freeze({
  defaultMaxCalls: 50,
  /** The JSON text of one call's input, in UTF-8 bytes (checked in the worker). */
  maxInputBytes: 1024 * 1024,
  /** The JSON text of one answer, in UTF-8 bytes (past it the guest gets PAYLOAD_TOO_LARGE). */
  maxAnswerBytes: 4 * 1024 * 1024,
});

type Answer = { ok: true; json: string } | { ok: false; code: string; message: string };

function failure(err: unknown): Answer {
  if (isAppError(err)) return { ok: false, code: err.code, message: err.message.slice(0, 2000) };
  return { ok: false, code: 'INTERNAL_ERROR', message: 'Internal error' };
}

/**
 * The main thread's side of one run's host calls: a MessageChannel per submission (its worker
 * end is transferred with the task), each call served by `HostCalls.call`, each answer posted on
 * the channel before `answered()` wakes the worker (sandbox-call.ts, `hostAnswered`).
 */
export class HostChannel {
  private port: MessagePort | undefined;
  private readonly ended = new AbortController();

  constructor(
    private readonly host: HostCalls,
    private readonly answered: () => void,
  ) {}

  /** A fresh channel for one submission (the previous one, if any, is closed). */
  open(): TaskHost {
    this.port?.close();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    port1.on('message', (message: unknown) => void this.serve(port1, message));
    return {
      port: port2,
      maxCalls: this.host.maxCalls ?? HOST_CALL_LIMITS.defaultMaxCalls,
      maxInputBytes: HOST_CALL_LIMITS.maxInputBytes,
    };
  }

  private async serve(port: MessagePort, message: unknown): Promise<void> {
    const m = message as { name?: unknown; input?: unknown };
    let answer: Answer;
    if (typeof m?.name !== 'string' || typeof m.input !== 'string') {
      answer = { ok: false, code: 'INTERNAL_ERROR', message: 'Internal error' };
    } else {
      try {
        const value = await this.host.call(m.name, JSON.parse(m.input), this.ended.signal);
        const json = JSON.stringify(value === undefined ? null : value);
        answer =
          Buffer.byteLength(json, 'utf8') > HOST_CALL_LIMITS.maxAnswerBytes
            ? {
                ok: false,
                code: 'PAYLOAD_TOO_LARGE',
                message: `The answer of ${m.name.slice(0, 100)} is larger than ${HOST_CALL_LIMITS.maxAnswerBytes} bytes`,
              }
            : { ok: true, json };
      } catch (err) {
        answer = failure(err);
      }
    }
    if (this.port !== port || this.ended.signal.aborted) return; // the run is over: nobody waits
    port.postMessage(answer);
    this.answered();
  }

  /** The run is over: calls still running are aborted, their answers dropped. */
  close(): void {
    this.ended.abort();
    this.port?.close();
    this.port = undefined;
  }
}
