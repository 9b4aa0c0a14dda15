import { z } from 'zod';

/**
 * The built-in primitives of the tool router, by their bare names (the registry lists them as
 * `platform.<name>`). This is the one list of their names: agent registration uses it as the
 * default `allowedTools` and to validate `allowedTools` entries; the tool registry checks that
 * every primitive it serves is named here (add a primitive here first).
 */
export const BUILTIN_PRIMITIVES = Object.freeze([
  // memory cache
  'mem_set',
  'mem_get',
  'mem_delete',
  'mem_list',
  'mem_incr',
  'mem_expire',
  // private database
  'db_create_table',
  'db_insert',
  'db_update',
  'db_delete',
  'db_query',
  'db_transaction',
  // network
  'net_http_get',
  'net_http_post',
  'net_http_put',
  'net_http_delete',
  'net_dns_resolve',
  // files
  'fs_write',
  'fs_read',
  'fs_stat',
  'fs_delete',
  'fs_mkdir',
  'fs_list',
  // events
  'events_publish',
  'events_subscribe',
  'events_unsubscribe',
  'events_list_topics',
  // processes (sandboxed)
  // proc_schedule, proc_spawn, proc_kill and proc_list of the product are not served yet; an agent's
  // default allowedTools must not promise tools that /tools does not list.
  'proc_execute',
  // social (optional connector: served only when SOCIAL_ENABLED, docs/social.md)
  'social_draft',
] as const);

export type BuiltinPrimitive = (typeof BUILTIN_PRIMITIVES)[number];

const PRIMITIVE_SET: ReadonlySet<string> = new Set(BUILTIN_PRIMITIVES);

/** Prefix of the registry's names for built-in primitives (`platform.mem_set`). */
export const PLATFORM_PREFIX = 'platform.';

export function isBuiltinPrimitive(name: string): name is BuiltinPrimitive {
  return PRIMITIVE_SET.has(name);
}

/** Most entries an `allowedTools` list may hold. */
export const MAX_ALLOWED_TOOLS = 200;

// A dotted tool name outside the primitives: `mcp.<server>.<tool>` (connectors) or
// `platform.skill.<slug>.<capability>` (skills). Segments are lower-case identifiers.
const SEGMENT = '[a-z0-9][a-z0-9_-]{0,63}';
const CONNECTOR_TOOL = new RegExp(`^mcp\\.${SEGMENT}\\.${SEGMENT}$`);
const SKILL_TOOL = new RegExp(`^platform\\.skill\\.${SEGMENT}\\.${SEGMENT}$`);
// A pattern: a prefix ending in `.` or `_`, then `*` (`mem_*`, `mcp.github.*`, `platform.*`).
const PATTERN = /^[a-z0-9][a-z0-9_.-]{0,127}[._]\*$/;

/**
 * One `allowedTools` entry, normalised: trimmed, lower-cased, a `platform.` prefix on a primitive
 * dropped (`platform.mem_set` → `mem_set`). Accepted forms:
 *
 * - a built-in primitive (`mem_set`, `platform.mem_set`);
 * - a connector tool `mcp.<server>.<tool>` or a skill capability `platform.skill.<slug>.<cap>`
 *   (they are resolved when called: connectors and skills come and go);
 * - a pattern: a prefix ending in `.` or `_` followed by `*` (`mem_*`, `mcp.github.*`, `platform.*`).
 */
export const AllowedToolSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'must not be empty')
  .max(200)
  .transform((raw) =>
    raw.startsWith(PLATFORM_PREFIX) && isBuiltinPrimitive(raw.slice(PLATFORM_PREFIX.length))
      ? raw.slice(PLATFORM_PREFIX.length)
      : raw,
  )
  .refine(
    (name) =>
      isBuiltinPrimitive(name) || CONNECTOR_TOOL.test(name) || SKILL_TOOL.test(name) || PATTERN.test(name),
    {
      message:
        'unknown tool: use a built-in primitive (mem_set), mcp.<server>.<tool>, or a pattern such as mem_* or mcp.github.*',
    },
  );

/** `allowedTools`: at most 200 entries, duplicates removed (order kept). */
export const AllowedToolsSchema = z
  .array(AllowedToolSchema)
  .max(MAX_ALLOWED_TOOLS)
  .transform((names) => [...new Set(names)]);

/**
 * Whether `tool` (a bare primitive or a dotted name) is allowed by `allowed` (exact names and
 * patterns). For the tool router; an empty list allows nothing (registration fills the default).
 */
export function isToolAllowed(tool: string, allowed: readonly string[]): boolean {
  const name =
    tool.startsWith(PLATFORM_PREFIX) && isBuiltinPrimitive(tool.slice(PLATFORM_PREFIX.length))
      ? tool.slice(PLATFORM_PREFIX.length)
      : tool;
  for (const entry of allowed) {
    if (entry === name) return true;
    if (entry.endsWith('*')) {
      const prefix = entry.slice(0, -1);
      if (name.startsWith(prefix)) return true;
      // `platform.*` also covers the bare primitives, which are `platform.<name>` in the registry.
      if (isBuiltinPrimitive(name) && `${PLATFORM_PREFIX}${name}`.startsWith(prefix)) return true;
    }
  }
  return false;
}
