import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { EnvSchema, type Env } from './config.schema';

/** The frozen configuration passed down from `main`. */
export interface Config extends Readonly<Env> {
  readonly DATA_DIR: string;
  readonly PUBLIC_BASE_URL: string;
  readonly NODE_ID: string;
  /** True when no external service is configured for that part (embedded default in use). */
  readonly embedded: {
    readonly transport: boolean;
    readonly documents: boolean;
    readonly cache: boolean;
    readonly sql: boolean;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The host of the default `PUBLIC_BASE_URL`. A wildcard address (`HOST=0.0.0.0`, the Docker
 * image's default) listens on every interface but is no address to hand out in links: `localhost`
 * stands for it. An IPv6 literal gets its brackets.
 */
function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Parses the environment once. A wrong value throws a ConfigError naming each bad variable, so the
 * boot stops with a message a person can act on.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.fromEntries(Object.keys(EnvSchema.shape).map((k) => [k, env[k]]));
  const parsed = EnvSchema.safeParse(known);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  if (e.RATE_LIMITS === 'off' && e.NODE_ENV === 'production') {
    throw new ConfigError([
      'RATE_LIMITS: off is refused with NODE_ENV=production (it lifts the sign-in and sign-up limits); raise the RATE_LIMIT_* variables instead',
    ]);
  }
  const config: Config = {
    ...e,
    DATA_DIR: path.resolve(e.DATA_DIR),
    PUBLIC_BASE_URL: (e.PUBLIC_BASE_URL ?? `http://${linkHost(e.HOST)}:${e.PORT}`).replace(/\/+$/, ''),
    NODE_ID:
      e.NODE_ID ??
      `${hostname().replace(/[^A-Za-z0-9_.-]/g, '')}-${process.pid}-${randomBytes(3).toString('hex')}`,
    embedded: {
      transport: !e.AMQP_URL,
      documents: !e.MONGODB_URL,
      cache: !e.REDIS_URL,
      sql: !e.DATABASE_URL,
    },
  };
  return Object.freeze(config);
}
