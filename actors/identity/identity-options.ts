import type { Mailer } from './mailer';

/** One rate limit: `points` requests per `durationSec` and key. */
export interface LimitSpec {
  points: number;
  durationSec: number;
}

/**
 * Rate limits of the identity routes (per client IP, per email/account, or both), counted in the
 * cache (Redis shares them across processes). Tuned in code, not in the environment.
 */
export interface IdentityLimits {
  /** POST /api/signin per IP. */
  signinPerIp: LimitSpec;
  /** POST /api/signin per IP and email. */
  signinPerIpEmail: LimitSpec;
  /** POST /api/signin per email, whatever the IP (distributed guessing). */
  signinPerEmail: LimitSpec;
  /** POST /api/signup per IP. */
  signupPerIp: LimitSpec;
  /** POST /api/signup per email. */
  signupPerEmail: LimitSpec;
  /** POST /api/forgot-password per IP. */
  forgotPerIp: LimitSpec;
  /** POST /api/forgot-password per email (mails sent to one address). */
  forgotPerEmail: LimitSpec;
  /** POST /api/forgot-password/confirm per IP. */
  confirmPerIp: LimitSpec;
  /** POST /api/forgot-password/confirm per email. */
  confirmPerEmail: LimitSpec;
  /** POST /api/session/from-key per IP. */
  fromKeyPerIp: LimitSpec;
  /** POST /api/session/token per account. */
  sessionTokenPerAccount: LimitSpec;
}

export const DEFAULT_IDENTITY_LIMITS: Readonly<IdentityLimits> = Object.freeze({
  signinPerIp: { points: 30, durationSec: 60 },
  signinPerIpEmail: { points: 10, durationSec: 60 },
  signinPerEmail: { points: 50, durationSec: 3600 },
  signupPerIp: { points: 20, durationSec: 600 },
  signupPerEmail: { points: 5, durationSec: 600 },
  forgotPerIp: { points: 10, durationSec: 600 },
  forgotPerEmail: { points: 3, durationSec: 3600 },
  confirmPerIp: { points: 20, durationSec: 600 },
  confirmPerEmail: { points: 10, durationSec: 3600 },
  fromKeyPerIp: { points: 30, durationSec: 60 },
  sessionTokenPerAccount: { points: 30, durationSec: 600 },
});

/** Tuning of the identity domain (tests use a low bcrypt cost and small limits). */
export interface IdentityOptions {
  /** bcrypt cost. Default 10. */
  bcryptCost?: number;
  /** Overrides of `DEFAULT_IDENTITY_LIMITS`, per limit. */
  limits?: Partial<IdentityLimits>;
  /** Lifetime of a password-reset token, ms. Default 1 hour. */
  resetTokenTtlMs?: number;
  /** Lifetime of a one-time login link, s. Default 300 (spec). */
  loginLinkTtlSec?: number;
  /** Idle lifetime of a browser session, ms. Default 7 days. */
  sessionMaxAgeMs?: number;
  /** Mail transport. Default: SMTP_URL, else the outbox under DATA_DIR. */
  mailer?: Mailer;
}

export const DEFAULT_RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_LOGIN_LINK_TTL_SEC = 300;

export function identityLimits(options: IdentityOptions | undefined): IdentityLimits {
  return { ...DEFAULT_IDENTITY_LIMITS, ...options?.limits };
}
