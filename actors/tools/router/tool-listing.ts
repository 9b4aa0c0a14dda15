import type { ToolRouterRouteServices } from './tool-invoke';
import { callerAgentId } from './default-agent';
import type { Principal } from '../../../schemas/auth';
import type { ToolEntry } from '../../../schemas/http/mcp';
import { AgentListToolsReplySchema, type ListedTool } from '../../../schemas/messages/tools';
import type { ResolvedAppDeps } from '../../../src/http/app.types';

/** An MCP `tools/list` entry (a connector tool's carries its server's title, outputSchema and hints). */
export type McpToolEntry = ToolEntry & {
  title?: string;
  outputSchema?: Record<string, unknown>;
  annotations: { readOnlyHint: boolean } & Record<string, string | number | boolean>;
};

/** What one caller sees listed: the built-in tools and its extra (connector) tools, sorted by name. */
export interface CallerListing {
  /** `GET /tools` entries. */
  readonly tools: readonly ToolEntry[];
  /** MCP `tools/list` entries (with annotations). */
  readonly mcpTools: readonly McpToolEntry[];
  /** Whether anything beyond the public built-in list is in it. */
  readonly personal: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The tools the caller may call beyond the built-in ones: its account's connector tools that its
 * agent's `allowedTools` permit (`agent.listTools` to the agent it acts as: its own agent, or the
 * account's default agent). A failure to list them is logged and lists none: the built-in
 * listing still answers.
 */
async function extraToolsOf(
  deps: ResolvedAppDeps<ToolRouterRouteServices>,
  principal: Principal,
): Promise<ListedTool[]> {
  const resolvers = deps.services?.toolRouter?.resolvers;
  if (!resolvers?.connector && !resolvers?.skill) return [];
  try {
    const reply = await deps.system.ask(
      `agent:${callerAgentId(principal)}`,
      'agent.listTools',
      {},
      { auth: principal },
    );
    return AgentListToolsReplySchema.parse(reply).tools;
  } catch (err) {
    deps.logger.warn(
      { err },
      'tool listing: the connector and skill tools of the caller could not be listed',
    );
    return [];
  }
}

/**
 * The listing for an authenticated caller (docs/tool-router.md, "Listings"): the registry's
 * built-in entries plus the caller's connector tools, the whole sorted by name.
 */
export async function listingFor(
  deps: ResolvedAppDeps<ToolRouterRouteServices>,
  principal: Principal,
  builtin: { entries: readonly ToolEntry[]; mcpTools: readonly McpToolEntry[] },
): Promise<CallerListing> {
  const extra = await extraToolsOf(deps, principal);
  if (extra.length === 0) return { tools: builtin.entries, mcpTools: builtin.mcpTools, personal: false };
  const entries = extra.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  return {
    tools: [...builtin.entries, ...entries].sort(byName),
    mcpTools: [
      ...builtin.mcpTools,
      ...extra.map(({ name, title, description, inputSchema, outputSchema, readOnly, annotations }) => ({
        name,
        ...(title !== undefined ? { title } : {}),
        description,
        inputSchema,
        ...(outputSchema !== undefined ? { outputSchema } : {}),
        // Every hint the server gave; readOnlyHint as the router enforces it (absent: false).
        annotations: { ...annotations, readOnlyHint: readOnly },
      })),
    ].sort(byName),
    personal: true,
  };
}
