import { z } from 'zod';

/** One rate limit: `points` requests per `durationSec` and key. */
export interface RateLimitSpec {
  readonly points: number;
  readonly durationSec: number;
}

/**
 * Every rate limit of the service that the environment sets, one variable each, with its default
 * (`<requests>/<window>`). The identity and `/register` limits are the ones `RATE_LIMITS=off`
 * turns off; the tool-call limit stays (it protects the workers, not the sign-in).
 */
export const RATE_LIMIT_DEFAULTS = {
  /** POST /api/signin per client address. */
  RATE_LIMIT_SIGNIN_PER_IP: '30/60s',
  /** POST /api/signin per client address and email. */
  RATE_LIMIT_SIGNIN_PER_IP_EMAIL: '10/60s',
  /** POST /api/signin per email, whatever the address (distributed guessing). */
  RATE_LIMIT_SIGNIN_PER_EMAIL: '50/3600s',
  /** POST /api/signup per client address. */
  RATE_LIMIT_SIGNUP_PER_IP: '20/600s',
  /** POST /api/signup per email. */
  RATE_LIMIT_SIGNUP_PER_EMAIL: '5/600s',
  /** POST /api/forgot-password per client address. */
  RATE_LIMIT_FORGOT_PASSWORD_PER_IP: '10/600s',
  /** POST /api/forgot-password per email (mails sent to one address). */
  RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL: '3/3600s',
  /** POST /api/forgot-password/confirm per client address. */
  RATE_LIMIT_RESET_CONFIRM_PER_IP: '20/600s',
  /** POST /api/forgot-password/confirm per email. */
  RATE_LIMIT_RESET_CONFIRM_PER_EMAIL: '10/3600s',
  /** POST /api/session/from-key per client address. */
  RATE_LIMIT_LOGIN_LINK_PER_IP: '30/60s',
  /** POST /api/session/token per account. */
  RATE_LIMIT_SESSION_TOKEN_PER_ACCOUNT: '30/600s',
  /** POST /register per client address (attempts, valid or not). */
  RATE_LIMIT_REGISTER_PER_IP: '20/3600s',
  /** Tool calls (`POST /mcp`, Studio) per agent. Not turned off by `RATE_LIMITS=off`. */
  RATE_LIMIT_TOOL_CALLS_PER_AGENT: '600/60s',
} as const;

export type RateLimitVariable = keyof typeof RATE_LIMIT_DEFAULTS;

/** The variables `RATE_LIMITS=off` turns off: the identity routes and `/register`. */
export const SWITCHABLE_RATE_LIMITS: readonly RateLimitVariable[] = (
  Object.keys(RATE_LIMIT_DEFAULTS) as RateLimitVariable[]
).filter((name) => name !== 'RATE_LIMIT_TOOL_CALLS_PER_AGENT');

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };
const SPEC = /^(\d{1,9})\s*\/\s*(\d{1,7})\s*([smhd]?)$/;
/** Longest window: one week (the cache keeps a counter for its window). */
const MAX_WINDOW_SEC = 7 * 86400;

/**
 * A limit as written in the environment: `<requests>/<window>`, the window in seconds, or with a
 * unit `s`, `m`, `h` or `d` (`20/600s`, `20/10m`, `50/1h`). Undefined when the text is not one.
 */
export function parseRateLimit(text: string): RateLimitSpec | undefined {
  const match = SPEC.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const points = Number(match[1]);
  const durationSec = Number(match[2]) * UNIT_SECONDS[match[3] || 's'];
  if (points < 1 || durationSec < 1 || durationSec > MAX_WINDOW_SEC) return undefined;
  return Object.freeze({ points, durationSec });
}

/** The zod field of one limit variable: text in, `RateLimitSpec` out; a bad value names the format. */
function rateLimitField(fallback: string) {
  return z
    .string()
    .optional()
    .transform((v, ctx): RateLimitSpec => {
      const text = v === undefined || v.trim() === '' ? fallback : v;
      const spec = parseRateLimit(text);
      if (!spec) {
        ctx.addIssue({
          code: 'custom',
          message: `must be <requests>/<window>, e.g. ${fallback} (window in s, m, h or d, at most 7d; requests at least 1)`,
        });
        return z.NEVER;
      }
      return spec;
    });
}

/** The fields of `EnvSchema` for the limits, one per variable of `RATE_LIMIT_DEFAULTS`. */
export const RATE_LIMIT_FIELDS = Object.fromEntries(
  (Object.keys(RATE_LIMIT_DEFAULTS) as RateLimitVariable[]).map((name) => [
    name,
    rateLimitField(RATE_LIMIT_DEFAULTS[name]),
  ]),
) as { [K in RateLimitVariable]: ReturnType<typeof rateLimitField> };

/** What `rateLimitOf` reads: the parsed limit variables and the switch. */
export type RateLimitConfig = { readonly [K in RateLimitVariable]: RateLimitSpec } & {
  readonly RATE_LIMITS: 'on' | 'off';
};

/**
 * The limit a variable sets, or undefined when it is off (`RATE_LIMITS=off` and a limit of the
 * identity routes or `/register`).
 */
export function rateLimitOf(config: RateLimitConfig, name: RateLimitVariable): RateLimitSpec | undefined {
  if (config.RATE_LIMITS === 'off' && SWITCHABLE_RATE_LIMITS.includes(name)) return undefined;
  return config[name];
}

/** The default of a limit, parsed (for code that runs without a configuration, and for tests). */
export function defaultRateLimit(name: RateLimitVariable): RateLimitSpec {
  return parseRateLimit(RATE_LIMIT_DEFAULTS[name]) as RateLimitSpec;
}
