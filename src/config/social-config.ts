import { z } from 'zod';

/** A comma-separated list of lower-case entries (blank entries dropped). */
const csv = z
  .string()
  .optional()
  .transform((v) =>
    v === undefined
      ? []
      : v
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
  );

const baseUrl = (dflt: string) =>
  z
    .string()
    .trim()
    .default(dflt)
    .transform((v) => v.replace(/\/+$/, ''))
    .refine((v) => /^https?:\/\/[^/]+/.test(v), {
      message: 'must be a URL starting with https:// or http://',
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const ratio = (dflt: number) => z.coerce.number().min(0).max(1).default(dflt);

/**
 * The optional social connector's settings (docs/social.md), spread into the configuration schema.
 * Kept apart so that the connector's variables stay in one place.
 */
export const SOCIAL_FIELDS = {
  /** `false` removes the `/api/social` and `/api/x` routes, the `social_draft` tool and the publisher duty. */
  SOCIAL_ENABLED: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  /** X's API (token, revoke, users/me, tweets). */
  X_API_BASE_URL: baseUrl('https://api.x.com'),
  /** Where the user authorizes the app (`/i/oauth2/authorize`). */
  X_AUTH_BASE_URL: baseUrl('https://x.com'),
  /** The OAuth 2.0 client of this service at X; unset = the `x` platform is only scaffolded. */
  X_CLIENT_ID: optionalText,
  /** Set for a confidential client (HTTP Basic at the token endpoint); unset = a public client. */
  X_CLIENT_SECRET: optionalText,
  /** Posts one X account may publish per UTC day. */
  SOCIAL_DAILY_CAP: z.coerce.number().int().min(1).max(10_000).default(17),
  /** Similarity to a recent post or queued draft from which a draft needs review (0..1). */
  SOCIAL_SIMILARITY_REVIEW: ratio(0.6),
  /** Similarity from which a draft is blocked (0..1). */
  SOCIAL_SIMILARITY_BLOCK: ratio(0.9),
  /** Words a draft may not contain (whole words, case-insensitive), comma-separated. */
  SOCIAL_BLOCKED_WORDS: csv,
  /** Topics (words or phrases) a draft may not touch, comma-separated. */
  SOCIAL_BLOCKED_TOPICS: csv,
  /** Link domains a draft may not point to (subdomains included), comma-separated. */
  SOCIAL_BLOCKED_DOMAINS: csv,
  /** How often the publisher duty looks for due posts, in ms (0 = no duty, not even from cron: only `POST /api/x/publish` publishes). */
  SOCIAL_PUBLISH_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /** Attempts of one post before it is `failed`. */
  SOCIAL_PUBLISH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** First wait before retrying a transient failure, in ms (doubled each attempt, at most 15 min). */
  SOCIAL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
};
