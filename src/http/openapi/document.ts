import type { z } from 'zod';
import { SESSION_COOKIE } from '../auth/session.middleware';
import { routeKey, type ResponseContract, type RouteAuth, type RouteContract } from './contract';
import { ERROR_BODY_SCHEMA, errorResponseComponents, errorResponseRef } from './error-responses';
import { SchemaConverter, type JsonSchema } from './json-schema';

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, JsonSchema>> };

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An account token (from sign-up/sign-in), an agent key, or a named bearer token.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The browser session set by sign-in or the login link (mutations need a same-origin Origin).',
  },
  adminToken: { type: 'http', scheme: 'bearer', description: '`ADMIN_TOKEN` as bearer.' },
  cronSecret: { type: 'http', scheme: 'bearer', description: '`CRON_SECRET` as bearer.' },
  runtimeCredential: { type: 'http', scheme: 'bearer', description: 'A runtime credential (`sdk_…`).' },
  metricsToken: { type: 'http', scheme: 'bearer', description: '`METRICS_TOKEN` as bearer (when set).' },
};

const SECURITY: Record<RouteAuth, JsonSchema[]> = {
  none: [],
  optional: [{}, { bearer: [] }, { session: [] }],
  sb: [{ bearer: [] }, { session: [] }],
  bearer: [{ bearer: [] }],
  admin: [{ adminToken: [] }, { bearer: [] }, { session: [] }],
  cron: [{ cronSecret: [] }, { adminToken: [] }],
  runtime: [{ runtimeCredential: [] }],
  metrics: [{}, { metricsToken: [] }],
};

/** `/api/x/:id` → `/api/x/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

function operationId(c: RouteContract): string {
  const words = c.path
    .split(/[/\-_.]/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by ${w.slice(1)}` : w))
    .join(' ');
  const camel = `${c.method} ${words}`
    .split(/\s+/)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
  return camel.replace(/[^A-Za-z0-9]/g, '');
}

function parameters(c: RouteContract, conv: SchemaConverter): JsonSchema[] {
  const out: JsonSchema[] = [];
  const fromSchema = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const json = conv.convert(schema, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  fromSchema(c.params, 'path');
  // Path parameters without a schema (the handler reads them as strings).
  for (const name of pathParamNames(c.path)) {
    if (!out.some((p) => p.in === 'path' && p.name === name)) {
      out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  fromSchema(c.query, 'query');
  if (c.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Retries with the same key run once and replay the first answer (docs/http.md).',
      schema: { type: 'string', maxLength: 255 },
    });
  }
  return out;
}

function response(r: ResponseContract, status: number, conv: SchemaConverter): JsonSchema {
  const long = 'safeParse' in r ? { schema: r as z.ZodType } : r;
  const out: JsonSchema = {
    description: long.description ?? (status < 300 ? 'Success' : `Status ${status}`),
  };
  if (long.schema || long.contentType) {
    const media: JsonSchema = {
      schema: long.schema ? conv.convert(long.schema, 'output') : { type: 'string' },
    };
    if (long.example !== undefined) media.example = long.example;
    out.content = { [long.contentType ?? 'application/json']: media };
  }
  if (long.headers) {
    out.headers = Object.fromEntries(
      Object.entries(long.headers).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    );
  }
  return out;
}

function errorStatuses(c: RouteContract): number[] {
  const statuses = new Set(c.errors ?? []);
  if (c.params || c.query || c.body) statuses.add(400);
  if (c.auth !== 'none') statuses.add(401);
  if (c.auth === 'sb' || c.auth === 'admin' || c.auth === 'bearer') statuses.add(403);
  return [...statuses].sort((a, b) => a - b);
}

function operation(c: RouteContract, conv: SchemaConverter): JsonSchema {
  const op: JsonSchema = {
    operationId: operationId(c),
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: c.tags ?? [],
    security: SECURITY[c.auth],
    ...(c.deprecated ? { deprecated: true } : {}),
  };
  const params = parameters(c, conv);
  if (params.length > 0) op.parameters = params;
  if (c.body) {
    const media: JsonSchema = { schema: conv.convert(c.body, 'input') };
    if (c.bodyExample !== undefined) media.example = c.bodyExample;
    op.requestBody = { required: true, content: { [c.bodyContentType ?? 'application/json']: media } };
  }
  const responses: JsonSchema = {};
  for (const [status, r] of Object.entries(c.responses))
    responses[status] = response(r, Number(status), conv);
  for (const status of errorStatuses(c)) responses[String(status)] ??= errorResponseRef(status);
  responses.default = { $ref: '#/components/responses/ErrorDefault' };
  op.responses = responses;
  return op;
}

/**
 * The OpenAPI 3.1 document of the given contracts. Throws on a contract declared twice, so two
 * modules cannot silently describe the same route differently.
 */
export function buildOpenApiDocument(
  info: OpenApiInfo,
  contracts: readonly RouteContract[],
): OpenApiDocument {
  const conv = new SchemaConverter();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const seen = new Set<string>();
  for (const c of contracts) {
    const key = routeKey(c.method, c.path);
    if (seen.has(key)) throw new Error(`Two contracts describe ${key}`);
    seen.add(key);
    (paths[openApiPath(c.path)] ??= {})[c.method] = operation(c, conv);
  }
  const tags = [...new Set(contracts.flatMap((c) => c.tags ?? []))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas: { ErrorBody: ERROR_BODY_SCHEMA, ...conv.components },
      responses: errorResponseComponents(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
