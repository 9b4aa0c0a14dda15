import { z } from 'zod';
import type { Principal } from '../../../schemas/auth';
import { AppError, errors } from '../../../schemas/errors';
import type { ToolEntry } from '../../../schemas/http/mcp';
import { isBuiltinPrimitive, PLATFORM_PREFIX } from '../../../schemas/tools/primitives';
import type { AnyToolDeclaration, ToolAgent, ToolContext } from './tool-declaration';

/** A tool that is not a built-in primitive: a connector's (`mcp.<server>.<tool>`) or a skill's. */
export interface ExternalTool {
  readonly source: 'external_mcp' | 'skill';
  readonly mutating: boolean;
  readonly maxDurationMs?: number;
  /** Validates its input itself (VALIDATION_ERROR) and runs. */
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
}

/** A tool of a resolver, as listed for a caller (`GET /tools`, MCP `tools/list`). */
export interface ExternalToolEntry {
  /** The full name (`mcp.<slug>.<tool>`). */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input, `type: "object"`. */
  readonly inputSchema: { type: 'object' } & Record<string, unknown>;
  readonly readOnly: boolean;
  /** A connector tool's MCP metadata, as its server gave it. */
  readonly title?: string;
  readonly outputSchema?: { type: 'object' } & Record<string, unknown>;
  readonly annotations?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * The hook for tools that come and go (connectors, skills): given a dotted name and the calling
 * agent, the tool, or undefined when the agent has no such tool (the caller gets 404).
 */
export interface ExternalToolResolver {
  resolve(name: string, agent: ToolAgent, signal: AbortSignal): Promise<ExternalTool | undefined>;
  /**
   * Longest any of its tools may take, in ms. The front door sets a call's deadline before the
   * name is resolved (resolution is per agent, in its actor), so it takes this one. Default: the
   * service's REQUEST_TIMEOUT_MS.
   */
  readonly maxDurationMs?: number;
  /**
   * The tools the agent's account offers through this resolver (all of them: the router filters
   * them with the agent's `allowedTools`). `principal` is the caller's. Absent: nothing is listed.
   */
  list?(agent: ToolAgent, principal: Principal, signal: AbortSignal): Promise<readonly ExternalToolEntry[]>;
}

/** How a requested name was understood. */
export type ToolTarget =
  | { kind: 'platform'; name: string; declaration: AnyToolDeclaration }
  | { kind: 'connector'; name: string }
  | { kind: 'skill'; name: string };

const CONNECTOR_NAME = /^mcp\.[a-z0-9][a-z0-9_-]{0,63}\.[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const SKILL_NAME = /^platform\.skill\.[a-z0-9][a-z0-9_-]{0,63}\.[a-z0-9][a-z0-9_-]{0,63}$/;
const SERVER_HINT = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Marker in `details.reason` of the 404 for a name that names no tool (MCP answers -32602). */
export const UNKNOWN_TOOL = 'unknown_tool';

export function unknownTool(name: string): AppError {
  return errors.notFound(`Unknown tool: ${name.slice(0, 300)}`, { reason: UNKNOWN_TOOL });
}

export function isUnknownToolError(err: unknown): boolean {
  return err instanceof AppError
    ? err.code === 'NOT_FOUND' && err.details.reason === UNKNOWN_TOOL
    : typeof err === 'object' &&
        err !== null &&
        (err as { code?: unknown }).code === 'NOT_FOUND' &&
        (err as { details?: { reason?: unknown } }).details?.reason === UNKNOWN_TOOL;
}

/** The input side of a schema as JSON Schema, without `$schema` (every entry would repeat it). */
function inputJsonSchema(declaration: AnyToolDeclaration): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(declaration.input, { io: 'input' }) as Record<
    string,
    unknown
  >;
  if (schema.type !== 'object') {
    // One entry that is not an object makes MCP clients reject the whole list.
    throw new Error(
      `tool ${declaration.name}: the input schema must be a z.object (JSON Schema type "object")`,
    );
  }
  return schema;
}

/**
 * The built-in tools of this process, from their declarations (actors/tools/platform-tools.ts).
 * Built once at boot: the listing (`GET /tools`, MCP `tools/list`) is computed once and cached.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, AnyToolDeclaration>();
  /** `GET /tools` entries, sorted by name. */
  readonly entries: readonly ToolEntry[];
  /** The serialised `GET /tools` body. */
  readonly listingJson: string;
  /** MCP `tools/list` entries: the same, with annotations. */
  readonly mcpTools: readonly (ToolEntry & { annotations: { readOnlyHint: boolean } })[];

  constructor(declarations: readonly AnyToolDeclaration[]) {
    for (const declaration of declarations) {
      if (!isBuiltinPrimitive(declaration.name)) {
        throw new Error(
          `tool ${declaration.name}: add it to BUILTIN_PRIMITIVES (schemas/tools/primitives.ts) first`,
        );
      }
      if (this.byName.has(declaration.name)) throw new Error(`tool ${declaration.name} is declared twice`);
      this.byName.set(declaration.name, declaration);
    }
    const sorted = [...this.byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.entries = Object.freeze(
      sorted.map((d) => ({
        name: `${PLATFORM_PREFIX}${d.name}`,
        description: d.description,
        inputSchema: inputJsonSchema(d) as ToolEntry['inputSchema'],
      })),
    );
    this.listingJson = JSON.stringify({ tools: this.entries });
    this.mcpTools = Object.freeze(
      this.entries.map((entry, i) => ({ ...entry, annotations: { readOnlyHint: !sorted[i].mutating } })),
    );
  }

  /** Number of tools in the registry (`GET /health` `tools`). */
  get size(): number {
    return this.byName.size;
  }

  /** A built-in tool by its bare name. */
  get(name: string): AnyToolDeclaration | undefined {
    return this.byName.get(name);
  }

  /**
   * The target of a name already resolved by `resolve` (at the front door), from its kind: a
   * built-in tool is looked up by its bare name, nothing is parsed again. A built-in name this
   * node does not know (another version) is an unknown tool.
   */
  targetOf(name: string, kind: ToolTarget['kind']): ToolTarget {
    if (kind !== 'platform') return { kind, name };
    const declaration = this.byName.get(name);
    if (!declaration) throw unknownTool(name);
    return { kind, name, declaration };
  }

  /**
   * What a requested name means: `platform.<x>` and bare `<x>` are built-in tools, `mcp.<server>.<tool>`
   * connector tools and `platform.skill.<slug>.<cap>` skill capabilities (resolved later, per agent).
   * `server` is the legacy hint: `{tool: 'create_issue', server: 'github'}` is `mcp.github.create_issue`.
   * Unknown: NOT_FOUND (`details.reason: 'unknown_tool'`).
   */
  resolve(requested: string, server?: string): ToolTarget {
    const bare = requested.startsWith(PLATFORM_PREFIX) ? requested.slice(PLATFORM_PREFIX.length) : requested;
    const declaration = this.byName.get(bare);
    if (declaration) return { kind: 'platform', name: bare, declaration };
    if (
      server !== undefined &&
      server !== 'platform' &&
      !requested.includes('.') &&
      SERVER_HINT.test(server)
    ) {
      return this.resolve(`mcp.${server}.${requested}`);
    }
    if (CONNECTOR_NAME.test(requested)) return { kind: 'connector', name: requested };
    if (SKILL_NAME.test(requested)) return { kind: 'skill', name: requested };
    if (isBuiltinPrimitive(bare)) {
      // Named in the primitives list but not served by this version (yet): still "no such tool".
      throw errors.notFound(`Tool ${bare} is not available on this service yet`, { reason: UNKNOWN_TOOL });
    }
    throw unknownTool(requested);
  }
}
