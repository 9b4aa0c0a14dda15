import { invokeTool, type ToolCall, type ToolRouterRouteServices } from './tool-invoke';
import type { Principal } from '../../../schemas/auth';
import { AppError, ERROR_CODES, isAppError, type ErrorBody } from '../../../schemas/errors';
import type { ResolvedAppDeps } from '../../../src/http/app.types';
import { IdempotencyKeeper } from '../../../src/http/idempotency/idempotency-keeper';
import { idempotencyScope, requestFingerprint } from '../../../src/http/idempotency/idempotency-key';
import { stableEnvelopeId } from '../../../src/kernel';

/** A tool call's outcome as kept for retries: what either dialect needs to answer it again. */
type KeptToolOutcome = { ok: true; result: unknown } | { ok: false; error: ErrorBody };

/** What `invokeToolOnce` resolves: the result, and whether it is the first call's, replayed. */
export interface ToolCallAnswer {
  result: unknown;
  replayed: boolean;
}

/**
 * A tool call with an idempotency key (docs/tool-router.md, "Idempotent retries"): at most one run
 * per caller and key, whatever the dialect, and a retry gets the first outcome.
 *
 * Two records make it hold when the first answer is lost. The front door keeps the outcome it
 * saw (24 h), claimed before the call; and the call to the agent actor carries an envelope id
 * derived from the key, so when the front door saw no outcome (504: the reply was lost, or the
 * work outlived its deadline; 503 after the command left), the claim is released and the retry
 * sends the same id: the kernel's dedupe record (shared through Redis) answers it with the first
 * run's reply, or makes it wait for the first run, or runs it if the first never arrived.
 *
 * Without a key (or a front door without a keeper): the plain `invokeTool`. Rejects as the call
 * does, or with the keeper's 409/503; `onReplay` is called before a replayed error is thrown.
 */
export async function invokeToolOnce(
  deps: ResolvedAppDeps<ToolRouterRouteServices>,
  principal: Principal,
  key: string | undefined,
  call: ToolCall,
  onReplay?: () => void,
): Promise<ToolCallAnswer> {
  const keeper = deps.idempotency;
  if (key === undefined || !keeper)
    return { result: await invokeTool(deps, principal, call), replayed: false };

  const scope = idempotencyScope(principal);
  const fingerprint = requestFingerprint(['tools/call', call.tool, call.server ?? null, call.input]);
  const begun = await keeper.begin({ scope, key, fingerprint });
  if (begun.replay) {
    const kept = begun.replay.outcome as KeptToolOutcome;
    if (kept.ok) return { result: kept.result, replayed: true };
    onReplay?.();
    throw AppError.fromBody(kept.error);
  }
  const { turn } = begun;
  let result: unknown;
  try {
    result = await invokeTool(deps, principal, call, {
      envelopeId: stableEnvelopeId(`${scope}\n${key}\n${fingerprint}`),
    });
  } catch (err) {
    const status = isAppError(err) ? ERROR_CODES[err.code].status : 500;
    if (IdempotencyKeeper.isFinal(status)) {
      await turn.keep({ ok: false, error: bodyOf(err as AppError) } satisfies KeptToolOutcome, status);
    } else {
      await turn.release();
    }
    throw err;
  }
  await turn.keep({ ok: true, result } satisfies KeptToolOutcome, 200);
  return { result, replayed: false };
}

/** The wire form of an error (errors rebuilt from the wire may be plain objects). */
function bodyOf(err: AppError): ErrorBody {
  return typeof (err as Partial<AppError>).toBody === 'function'
    ? err.toBody()
    : { ...(err.details ?? {}), error: String(err.message), code: err.code };
}
