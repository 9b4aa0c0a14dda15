import {
  defaultRateLimit,
  rateLimitOf,
  type RateLimitConfig,
  type RateLimitVariable,
} from '../../src/config/rate-limits';
import type { Mailer } from './mailer';

/** One rate limit: `points` requests per `durationSec` and key; `points: 0` = no limit (RATE_LIMITS=off). */
export interface LimitSpec {
  points: number;
  durationSec: number;
}

/**
 * Rate limits of the identity routes (per client IP, per email/account, or both), counted in the
 * cache (Redis shares them across processes). Each comes from its environment variable
 * (src/config/rate-limits.ts); `RATE_LIMITS=off` turns them all off.
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

/** The environment variable of each identity limit. */
export const IDENTITY_LIMIT_VARIABLES: Readonly<Record<keyof IdentityLimits, RateLimitVariable>> =
  Object.freeze({
    signinPerIp: 'RATE_LIMIT_SIGNIN_PER_IP',
    signinPerIpEmail: 'RATE_LIMIT_SIGNIN_PER_IP_EMAIL',
    signinPerEmail: 'RATE_LIMIT_SIGNIN_PER_EMAIL',
    signupPerIp: 'RATE_LIMIT_SIGNUP_PER_IP',
    signupPerEmail: 'RATE_LIMIT_SIGNUP_PER_EMAIL',
    forgotPerIp: 'RATE_LIMIT_FORGOT_PASSWORD_PER_IP',
    forgotPerEmail: 'RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL',
    confirmPerIp: 'RATE_LIMIT_RESET_CONFIRM_PER_IP',
    confirmPerEmail: 'RATE_LIMIT_RESET_CONFIRM_PER_EMAIL',
    fromKeyPerIp: 'RATE_LIMIT_LOGIN_LINK_PER_IP',
    sessionTokenPerAccount: 'RATE_LIMIT_SESSION_TOKEN_PER_ACCOUNT',
  });

const LIMIT_NAMES = Object.keys(IDENTITY_LIMIT_VARIABLES) as Array<keyof IdentityLimits>;

/** The limits with every variable at its default. */
export const DEFAULT_IDENTITY_LIMITS: Readonly<IdentityLimits> = Object.freeze(
  Object.fromEntries(
    LIMIT_NAMES.map((name) => [name, { ...defaultRateLimit(IDENTITY_LIMIT_VARIABLES[name]) }]),
  ) as unknown as IdentityLimits,
);

/** A limit that is off: the rate-limit middleware lets every request through. */
const OFF: LimitSpec = Object.freeze({ points: 0, durationSec: 1 });

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

/**
 * The identity options a process runs with: the limits from the environment, then those given in
 * code (tests, benchmarks); with `RATE_LIMITS=off` every one of them is off.
 */
export function identityOptionsFor(config: RateLimitConfig, options: IdentityOptions = {}): IdentityOptions {
  const limits = Object.fromEntries(
    LIMIT_NAMES.map((name) => {
      const variable = IDENTITY_LIMIT_VARIABLES[name];
      const spec =
        rateLimitOf(config, variable) === undefined ? OFF : (options.limits?.[name] ?? config[variable]);
      return [name, { ...spec }];
    }),
  ) as unknown as IdentityLimits;
  return { ...options, limits };
}
