import { errors } from '../../schemas/errors';
import type { Config } from '../config/load-config';
import type { Logger } from '../logging/logger';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import { telemetry } from '../telemetry/tracing';

/**
 * The process's sandbox (`proc_execute`), created on first use with `SANDBOX_THREADS` threads, of
 * which one account's calls hold at most `SANDBOX_THREADS_PER_ACCOUNT`: the pool's workers start
 * only in a process that runs code. One per process; `close` stops it if it was started, and later
 * calls fail UNAVAILABLE like those of a closed sandbox.
 */
export function createLazySandbox(
  config: Config,
  logger: Logger,
  options: Partial<Omit<SandboxOptions, 'threads' | 'logger'>> = {},
): Sandbox {
  let sandbox: Sandbox | undefined;
  let closed = false;
  const perAccount = config.SANDBOX_THREADS_PER_ACCOUNT;
  const get = () =>
    (sandbox ??= createSandbox({
      ...(perAccount > 0 ? { threadsPerOwner: perAccount } : {}),
      ...options,
      threads: config.SANDBOX_THREADS,
      logger,
    }));
  return {
    execute: async (request, opts) => {
      if (closed) throw errors.unavailable('The sandbox is closed');
      const tracer = telemetry.tracer;
      if (!tracer) return get().execute(request, opts);
      // The language only: the code and its input are the caller's data.
      const language = typeof request?.language === 'string' ? request.language.slice(0, 32) : 'unknown';
      return tracer.inSpan(
        'sandbox execute',
        { kind: 'internal', attributes: { 'sandbox.language': language } },
        () => get().execute(request, opts),
      );
    },
    abortAll: (reason) => sandbox?.abortAll(reason) ?? 0,
    stats: () => sandbox?.stats() ?? { threads: 0, inFlight: 0, queued: 0 },
    close: async () => {
      closed = true;
      await sandbox?.close();
    },
  };
}
