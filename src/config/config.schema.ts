import { z } from 'zod';
import { allowedOriginsField, trustProxyField } from './proxy-and-origins';
import { RATE_LIMIT_FIELDS } from './rate-limits';
import { SOCIAL_FIELDS } from './social-config';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const optionalSecret = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' });

const int = (min: number, max: number, dflt: number) =>
  z.coerce.number().int().min(min).max(max).default(dflt);

const bool = (dflt: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(dflt ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** `MCP_STDIO_ALLOWLIST`: a JSON array of non-empty arrays of non-empty strings (argv prefixes). */
const stdioAllowlist = z
  .string()
  .optional()
  .transform((v, ctx): string[][] => {
    if (v === undefined || v.trim() === '') return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of command-line prefixes' });
      return z.NEVER;
    }
    const entries = z
      .array(z.array(z.string().min(1).max(4096)).min(1).max(64))
      .max(100)
      .safeParse(parsed);
    if (!entries.success) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a JSON array of non-empty arrays of strings, e.g. [["/usr/local/bin/mcp-server"]]',
      });
      return z.NEVER;
    }
    return entries.data;
  });

/**
 * Every environment variable the service reads, with its default. Parsed once at boot by
 * `loadConfig`; nothing else in the code reads `process.env`.
 */
export const EnvSchema = z.object({
  /** Which parts run in this process: the front door, the actors, or both. */
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  PORT: int(0, 65535, 3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Where the embedded defaults keep their data. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** `{base_url}` in links; defaults to http://HOST:PORT. */
  PUBLIC_BASE_URL: optionalUrl(['http', 'https']),
  /** RabbitMQ; unset = in-process transport. */
  AMQP_URL: optionalUrl(['amqp', 'amqps']),
  /** Messages a worker takes at once from each actor queue. */
  AMQP_PREFETCH: int(1, 10000, 64),
  /** Deliveries of one message before the broker dead-letters it. */
  AMQP_DELIVERY_LIMIT: int(1, 1000, 5),
  /** Most commands to one actor kind sent in one event-loop turn that leave as one message (1 = no batching). */
  AMQP_BATCH_MAX: int(1, 1000, 32),
  /** Longest wait between two attempts to reconnect to RabbitMQ, in ms (the first waits 100 ms). */
  AMQP_RECONNECT_MAX_MS: int(100, 60000, 800),
  /** A command message longer than this, in bytes, is poison: dead-lettered unread (64 MiB). */
  AMQP_MAX_MESSAGE_BYTES: int(1024, 1024 * 1024 * 1024, 64 * 1024 * 1024),
  /** First part of every queue and exchange name: deployments (or benchmarks) sharing a broker stay apart. */
  AMQP_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('ars'),
  /** MongoDB; unset = the embedded document server under DATA_DIR. */
  MONGODB_URL: optionalUrl(['mongodb', 'mongodb+srv']),
  /**
   * The embedded document server on a thread of its own instead of the node's main thread
   * (docs/architecture.md, "The document server's thread"). Off by default: see the figures there.
   */
  DOCUMENTS_THREAD: bool(false),
  /** Redis; unset = in-memory cache and session store. */
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  /** Longest wait between two attempts to reconnect to Redis, in ms (the first waits about 50 ms). */
  REDIS_RECONNECT_MAX_MS: int(50, 60000, 500),
  /** PostgreSQL for agents' private databases; unset = embedded PGlite under DATA_DIR. */
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  JWT_SECRET: optionalSecret,
  /** 32 bytes as 64 hex characters or base64. */
  VAULT_MASTER_KEY: optionalSecret,
  ADMIN_TOKEN: optionalSecret,
  CRON_SECRET: optionalSecret,
  /**
   * Accounts with ops-admin rights (docs/operations.md), comma-separated emails, compared without
   * case. `ADMIN_TOKEN` as a bearer token is the other way to be an ops admin.
   */
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v): readonly string[] =>
      Object.freeze(
        (v ?? '')
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
    ),
  /** `off`: no request or tool call is measured and `GET /metrics` answers 404 (benchmarks, opt-out). */
  METRICS: z.enum(['on', 'off']).default('on'),
  /** When set, `GET /metrics` (Prometheus) needs it as bearer token; unset, it is open. */
  METRICS_TOKEN: optionalSecret,
  /**
   * A port of its own for `GET /metrics` (0 = none): how a worker (ROLE=worker, no front door) is
   * scraped. Any role may set it; on HOST like PORT.
   */
  METRICS_PORT: int(0, 65535, 0),
  /**
   * OTLP/HTTP collector base URL (spans go to `<url>/v1/traces`): tracing is on when set, and
   * OpenTelemetry is not even loaded when unset (docs/operations.md, "Traces").
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(['http', 'https']),
  /** `service.name` of the spans. */
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('agent-runtime-service'),
  /**
   * Days a read or archived notification is kept (the `notification-retention` duty deletes older
   * ones, by creation date); 0 = kept forever. Unread notifications are never deleted.
   */
  NOTIFICATION_RETENTION_DAYS: int(0, 36_500, 90),
  /**
   * How often the `app-update-refresh` duty looks for installations behind their app's latest
   * version (records it on them, notifies each account once per version), ms; 0 = no duty.
   */
  APP_UPDATE_REFRESH_INTERVAL_MS: int(0, 86_400_000, 300_000),
  /** How often each process announces itself to the crew, ms; its record lapses after 3 beats. */
  CREW_HEARTBEAT_MS: int(200, 60_000, 2000),
  /**
   * Master keys the vault was using before VAULT_MASTER_KEY (docs/vault.md, "Master key
   * rotation"): a comma-separated list, newest first, each 64 hex characters or base64. Values
   * sealed under one of them stay readable and are re-sealed under VAULT_MASTER_KEY.
   */
  VAULT_MASTER_KEY_PREVIOUS: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v.trim() === ''
        ? []
        : v
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean),
    )
    .refine((keys) => keys.every((k) => k.length >= 16), {
      message: 'each key must be at least 16 characters',
    }),
  /** Runtime-grant requests (`POST /api/vault/access`) per account per minute; 0 = no limit. */
  VAULT_ACCESS_PER_MINUTE: int(0, 1_000_000, 600),
  /** Calls of `POST /api/vault/runtime-grants/consume` per runtime credential per minute; 0 = no limit. */
  VAULT_CONSUME_PER_MINUTE: int(0, 1_000_000, 1200),
  /** SMTP for password-reset mail; unset = mail written to the outbox under DATA_DIR. */
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  LLM_BASE_URL: optionalUrl(['http', 'https']),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  /** Sandbox threads per process (Piscina); 0 = one per core. */
  SANDBOX_THREADS: int(0, 64, 0),
  /**
   * Sandbox threads one account's calls may hold at once (docs/sandbox.md, "Waiting calls");
   * 0 = all but one (at least 1). At or above SANDBOX_THREADS: one account may take every thread.
   */
  SANDBOX_THREADS_PER_ACCOUNT: int(0, 64, 0),
  /** Lets net_http_* and HTTP MCP connectors reach loopback addresses. For tests only; never in production. */
  ALLOW_LOOPBACK_HTTP: bool(false),
  /**
   * Stdio MCP connectors (docs/connectors.md): a JSON array of command-line prefixes, e.g.
   * `[["/usr/local/bin/mcp-github"], ["node", "/opt/mcp/server.js"]]`. A connector's command and
   * arguments must start with one of them. Unset or `[]` = stdio connectors are refused.
   */
  MCP_STDIO_ALLOWLIST: stdioAllowlist,
  /** Default deadline of a request to an actor, in milliseconds. */
  REQUEST_TIMEOUT_MS: int(100, 600000, 15000),
  /**
   * How long the outcome of a request sent with an `Idempotency-Key` is kept for its retries, in
   * milliseconds (docs/http.md, "Idempotent retries"). One minute to seven days; default 24 h.
   */
  IDEMPOTENCY_TTL_MS: int(60000, 7 * 86400000, 86400000),
  /**
   * Lease of the node running an execution's step, in milliseconds (docs/executions.md, "Orphaned
   * steps"): renewed every third of it while the step runs; a step whose lease lapsed is failed by
   * the sweeper.
   */
  EXECUTION_LEASE_MS: int(200, 3600000, 60000),
  /** How often each worker looks for executions whose lease lapsed, in milliseconds; 0 = never. */
  EXECUTION_SWEEP_INTERVAL_MS: int(0, 3600000, 15000),
  /** Idle time after which an actor is passivated, in milliseconds. */
  ACTOR_IDLE_MS: int(1000, 86400000, 60000),
  /**
   * Rate limits, one variable each (`RATE_LIMIT_SIGNUP_PER_IP=20/600s`…): src/config/rate-limits.ts
   * lists them with their defaults.
   */
  ...RATE_LIMIT_FIELDS,
  /**
   * `off` turns off the limits of the identity routes and `/register` (test suites, trusted
   * networks); logged as a warning at boot, refused with NODE_ENV=production.
   */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /**
   * Proxies in front of the service whose `X-Forwarded-For` counts for the client's address (rate
   * limits): a hop count or addresses and CIDR ranges. Unset = none (`req.ip` is the peer).
   */
  TRUST_PROXY: trustProxyField,
  /** Browser origins allowed to call `/mcp` besides PUBLIC_BASE_URL's (comma-separated). */
  ALLOWED_ORIGINS: allowedOriginsField,
  /** The optional social connector (docs/social.md): src/config/social-config.ts. */
  ...SOCIAL_FIELDS,
  /** JSON request body limit, in bytes. */
  BODY_LIMIT_BYTES: int(1024, 64 * 1024 * 1024, 12 * 1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: human-readable when stdout is a terminal, JSON lines otherwise; `json` or `pretty` forces one. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Stable name of this node; defaults to host-pid-random. */
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .optional(),
  NODE_ENV: z.string().optional(),
});

export type Env = z.infer<typeof EnvSchema>;
