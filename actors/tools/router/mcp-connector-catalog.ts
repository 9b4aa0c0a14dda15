import type { Principal } from '../../../schemas/auth';
import { errors, isAppError } from '../../../schemas/errors';
import type {
  McpCompletion,
  McpCompletionRef,
  McpPromptProvider,
  McpResourceProvider,
} from '../../../src/http/mcp/json-rpc';

/**
 * Connector resources, prompts and completions federated into `/mcp` (docs/connectors.md,
 * "Resources, prompts and completions"). An upstream resource `<uri>` of connector `<slug>` is
 * `connector://<slug>/<encodeURIComponent(uri)>`; a template keeps its `{…}` expressions and has
 * its literal parts encoded the same way; a prompt `<name>` is `mcp.<slug>.<name>`. Every request
 * goes to the account's connectors actor (`connectors.forward`: the caller's principal, the
 * connector's session, limits and audit, as a tool call); the caller reaches a connector only when
 * its agent may call at least one of its tools (the `tools/list` listing: `allowedTools`).
 */

/** The connectors' side (actors/connectors/connector-federation.ts, installed by `buildServices`). */
export interface ConnectorCatalog {
  forward(
    accountId: string,
    slug: string,
    method: string,
    params: Record<string, unknown>,
    auth: Principal,
  ): Promise<Record<string, unknown>>;
}

export const CONNECTOR_SCHEME = 'connector://';
const CURSOR_PREFIX = 'cx1.';

export const connectorUri = (slug: string, uri: string) =>
  `${CONNECTOR_SCHEME}${slug}/${encodeURIComponent(uri)}`;

/** A template: the literal parts encoded, the `{…}` expressions kept for the client to expand. */
const connectorTemplate = (slug: string, template: string) =>
  `${CONNECTOR_SCHEME}${slug}/${template
    .split(/(\{[^}]*\})/)
    .map((part) => (part.startsWith('{') ? part : encodeURIComponent(part)))
    .join('')}`;

/** `connector://<slug>/<encoded>` → `{slug, uri}`; undefined for any other URI. */
export function parseConnectorUri(uri: string): { slug: string; uri: string } | undefined {
  if (!uri.startsWith(CONNECTOR_SCHEME)) return undefined;
  const rest = uri.slice(CONNECTOR_SCHEME.length);
  const cut = rest.indexOf('/');
  if (cut <= 0 || cut === rest.length - 1) return undefined;
  try {
    return { slug: rest.slice(0, cut), uri: decodeURIComponent(rest.slice(cut + 1)) };
  } catch {
    return undefined;
  }
}

const parsePromptName = (name: string) => {
  const m = /^mcp\.([^.]+)\.(.+)$/.exec(name);
  return m ? { slug: m[1], name: m[2] } : undefined;
};

interface Cursor {
  slug: string;
  cursor?: string;
}
const encodeCursor = (c: Cursor) => CURSOR_PREFIX + Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw?.startsWith(CURSOR_PREFIX)) return undefined;
  try {
    const c = JSON.parse(
      Buffer.from(raw.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8'),
    ) as Cursor;
    if (typeof c.slug === 'string' && (c.cursor === undefined || typeof c.cursor === 'string')) return c;
  } catch {
    // fall through
  }
  throw errors.validation('Invalid cursor');
}

const objects = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];

/**
 * The caller's providers with its connectors' resources, prompts and completions added.
 * `slugs` resolves the connectors the caller may reach (sorted).
 */
export function withConnectors(
  own: { resources: McpResourceProvider; prompts: McpPromptProvider; complete: NonNullable<CompleteFn> },
  catalog: ConnectorCatalog,
  principal: Principal & { accountId: string },
  slugs: () => Promise<string[]>,
): { resources: McpResourceProvider; prompts: McpPromptProvider; complete: NonNullable<CompleteFn> } {
  const forward = (slug: string, method: string, params: Record<string, unknown>) =>
    catalog.forward(principal.accountId, slug, method, params, principal);
  const reachable = async (slug: string) => {
    if (!(await slugs()).includes(slug)) throw errors.notFound(`No such connector: ${slug.slice(0, 100)}`);
  };
  // Listing across connectors: one that offers nothing (or is down) is left out, not an error.
  const quietly = async <T>(work: Promise<T>, fallback: T): Promise<T> => {
    try {
      return await work;
    } catch (err) {
      if (isAppError(err)) return fallback;
      throw err;
    }
  };
  const ownListOf = async (list: readonly unknown[] | (() => Promise<readonly unknown[]>)) =>
    typeof list === 'function' ? list() : list;

  const resources: McpResourceProvider = {
    ...own.resources,
    async list(raw) {
      const at = decodeCursor(raw);
      const all = await slugs();
      const after = (slug: string | undefined) => {
        const next = slug === undefined ? all[0] : all[all.indexOf(slug) + 1];
        return next === undefined ? undefined : encodeCursor({ slug: next });
      };
      if (!at) {
        const page = await own.resources.list(raw);
        return { resources: page.resources, nextCursor: page.nextCursor ?? after(undefined) };
      }
      const answer = all.includes(at.slug)
        ? await quietly(forward(at.slug, 'resources/list', at.cursor ? { cursor: at.cursor } : {}), {})
        : {};
      const next = typeof answer.nextCursor === 'string' ? answer.nextCursor : undefined;
      return {
        resources: objects(answer.resources).map((r) => ({
          ...r,
          uri: connectorUri(at.slug, String(r.uri)),
        })),
        nextCursor: next ? encodeCursor({ slug: at.slug, cursor: next }) : after(at.slug),
      };
    },
    templates: async () => {
      const mine = await ownListOf(own.resources.templates);
      const theirs = await Promise.all(
        (await slugs()).map(async (slug) => {
          const answer = await quietly(forward(slug, 'resources/templates/list', {}), {});
          return objects(answer.resourceTemplates).map((t) => ({
            ...t,
            uriTemplate: connectorTemplate(slug, String(t.uriTemplate)),
          }));
        }),
      );
      return [...mine, ...theirs.flat()];
    },
    async read(uri) {
      const target = parseConnectorUri(uri);
      if (!target) return own.resources.read(uri);
      await reachable(target.slug);
      const answer = await forward(target.slug, 'resources/read', { uri: target.uri });
      return objects(answer.contents).map((c) => ({
        ...c,
        uri: connectorUri(target.slug, typeof c.uri === 'string' ? c.uri : target.uri),
      }));
    },
  };

  // A connector URI's subscription is also made upstream, so that its updates come back
  // (mcp-connector-updates.ts); the session's own entry is stored as for a file.
  const subscribe = own.resources.subscribe;
  if (subscribe) {
    resources.subscribe = async (uri) => {
      const target = parseConnectorUri(uri);
      if (target) {
        await reachable(target.slug);
        await forward(target.slug, 'resources/subscribe', { uri: target.uri });
      }
      await subscribe(uri);
    };
  }

  const prompts: McpPromptProvider = {
    list: async () => {
      const mine = await ownListOf(own.prompts.list);
      const theirs = await Promise.all(
        (await slugs()).map(async (slug) => {
          const answer = await quietly(forward(slug, 'prompts/list', {}), {});
          return objects(answer.prompts).map((p) => ({ ...p, name: `mcp.${slug}.${String(p.name)}` }));
        }),
      );
      return [...mine, ...theirs.flat()];
    },
    async get(name, args) {
      const target = parsePromptName(name);
      if (!target) return own.prompts.get(name, args);
      await reachable(target.slug);
      const answer = await forward(target.slug, 'prompts/get', { name: target.name, arguments: args });
      return {
        ...(typeof answer.description === 'string' ? { description: answer.description } : {}),
        messages: objects(answer.messages),
      };
    },
  };

  const complete = async (ref: McpCompletionRef, argument: { name: string; value: string }) => {
    const prompt = ref.type === 'ref/prompt' ? parsePromptName(ref.name) : undefined;
    const resource = ref.type === 'ref/resource' ? parseConnectorUri(ref.uri) : undefined;
    const target = prompt ?? resource;
    if (!target) return own.complete(ref, argument);
    await reachable(target.slug);
    const upstreamRef = prompt
      ? { type: 'ref/prompt', name: prompt.name }
      : { type: 'ref/resource', uri: resource!.uri };
    const answer = await forward(target.slug, 'completion/complete', { ref: upstreamRef, argument });
    const completion = (answer.completion ?? {}) as { values?: unknown; hasMore?: unknown };
    const values = Array.isArray(completion.values)
      ? completion.values.filter((v): v is string => typeof v === 'string')
      : [];
    return { values, hasMore: completion.hasMore === true } satisfies McpCompletion;
  };

  return { resources, prompts, complete };
}

type CompleteFn = (
  ref: McpCompletionRef,
  argument: { name: string; value: string },
) => Promise<McpCompletion>;

/** The connectors a listing's `mcp.<slug>.<tool>` names reach, sorted. */
export function slugsOfListing(tools: readonly unknown[]): string[] {
  const slugs = new Set<string>();
  for (const t of tools) {
    const name = (t as { name?: unknown }).name;
    const m = typeof name === 'string' ? /^mcp\.([^.]+)\./.exec(name) : null;
    if (m) slugs.add(m[1]);
  }
  return [...slugs].sort();
}

/** `own` with the caller's connectors when there is a catalog and the caller has an account. */
export function federated(
  own: { resources: McpResourceProvider; prompts: McpPromptProvider; complete: NonNullable<CompleteFn> },
  catalog: ConnectorCatalog | undefined,
  principal: Principal,
  listing: () => Promise<readonly unknown[]>,
) {
  const accountId = principal.accountId;
  if (!catalog || !accountId) return own;
  let slugs: Promise<string[]> | undefined;
  return withConnectors(
    own,
    catalog,
    { ...principal, accountId },
    () => (slugs ??= listing().then(slugsOfListing)),
  );
}
