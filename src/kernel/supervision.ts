import { isAppError } from '../../schemas/errors';

/**
 * How the supervisor treats a thrown value:
 * - `domain`: a rule said no (AppError, not retryable). Replied to the caller; the actor goes on.
 * - `transient`: something we depend on is briefly unavailable (AppError with `retryable`). The
 *   message is retried with backoff while its deadline allows.
 * - `defect`: anything else (a bug). The actor is restarted; past the restart budget the message
 *   is dead-lettered.
 */
export type ErrorKind = 'domain' | 'transient' | 'defect';

/** Supervision policy of an actor kind. Every field has a default; override per definition. */
export interface SupervisionPolicy {
  /** Most attempts of one message on transient errors, the first included. Default 10. */
  maxAttempts: number;
  /** Backoff ceiling of the first retry, in ms; doubles each retry. Default 50. */
  backoffBaseMs: number;
  /** Cap of the backoff ceiling, in ms. Default 2000. */
  backoffMaxMs: number;
  /** Restarts of one actor allowed within `restartWindowMs`; the next defect dead-letters. Default 3. */
  maxRestarts: number;
  /** Window of the restart budget, in ms. Default 60000. */
  restartWindowMs: number;
  /** Classifies a thrown value. Default `classifyError`. */
  classify: (error: unknown) => ErrorKind;
}

/**
 * The default classification. RATE_LIMITED is registered as retryable for the *client* (it
 * carries `retryAfter`), but retrying it inside the kernel would only delay the answer, so it is
 * a domain error here.
 */
export function classifyError(error: unknown): ErrorKind {
  if (!isAppError(error)) return 'defect';
  if (error.code === 'RATE_LIMITED') return 'domain';
  return error.retryable ? 'transient' : 'domain';
}

export const DEFAULT_SUPERVISION: Readonly<SupervisionPolicy> = Object.freeze({
  maxAttempts: 10,
  backoffBaseMs: 50,
  backoffMaxMs: 2000,
  maxRestarts: 3,
  restartWindowMs: 60_000,
  classify: classifyError,
});

/** Fills a partial policy from a base (the system's, itself from DEFAULT_SUPERVISION). */
export function resolvePolicy(
  base: Readonly<SupervisionPolicy>,
  override: Partial<SupervisionPolicy> | undefined,
): Readonly<SupervisionPolicy> {
  if (!override) return base;
  const policy = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value !== undefined) (policy as Record<string, unknown>)[key] = value;
  }
  return Object.freeze(policy);
}

/**
 * Delay before retry number `attempt` (1 = the first retry): capped exponential backoff with full
 * jitter, uniform in [0, min(max, base * 2^(attempt-1))). Full jitter spreads the retries of many
 * actors hit by the same outage instead of synchronising them.
 */
export function backoffDelay(
  attempt: number,
  policy: Readonly<SupervisionPolicy>,
  random = Math.random,
): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
