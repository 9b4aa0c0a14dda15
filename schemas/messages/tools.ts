import { z } from 'zod';
import { McpToolMetadataShape } from '../documents/connector';

/**
 * Messages of the tool router (docs/tool-router.md).
 *
 * - `agent.invokeTool` to `agent:<internal id>`: one tool call by (or for) that agent. The actor
 *   authorises and counts it within its turn and runs the tool outside it.
 * - `agent.listTools` to `agent:<internal id>`: the connector tools the agent may call (listings).
 * - Broadcast `agent.changed` `{agentId}`: an agent's document changed (allowedTools, status,
 *   allowedDomains, …); every node holding the actor reloads it before its next tool call.
 * - Broadcast `workspace.panic` `{workspaceId, active}`: the panic flag `panic:workspace:<id>` of
 *   the cache was set or cleared; nodes drop their memo of it at once.
 */

/** Who made a call, for route records. */
export const INVOKED_BY_TYPES = ['agent', 'account', 'workflow', 'studio', 'skill', 'app'] as const;
export const InvokedByTypeSchema = z.enum(INVOKED_BY_TYPES);
export type InvokedByType = z.infer<typeof InvokedByTypeSchema>;

/** Public references of the apps, workflows and skills a call was made for (route records). */
export const RelatedRefsSchema = z.object({
  apps: z.array(z.string().max(200)).max(20).default([]),
  workflows: z.array(z.string().max(200)).max(20).default([]),
  skills: z.array(z.string().max(200)).max(20).default([]),
});
export type RelatedRefs = z.infer<typeof RelatedRefsSchema>;

export const AgentInvokeToolMessageSchema = z.object({
  /**
   * The resolved tool name: a built-in primitive's bare name (`mem_set`), a connector tool
   * `mcp.<server>.<tool>` or a skill capability `platform.skill.<slug>.<cap>`.
   */
  tool: z.string().min(1).max(300),
  /**
   * How the front door resolved `tool` (`ToolRegistry.resolve`): the agent takes it as it is
   * instead of resolving the name again. Absent (a workflow step's call): resolved by the agent.
   */
  kind: z.enum(['platform', 'connector', 'skill']).optional(),
  /** The tool's raw input, validated by the tool's schema when it runs. */
  input: z.record(z.string(), z.unknown()).default({}),
  invokedByType: InvokedByTypeSchema.default('agent'),
  related: RelatedRefsSchema.optional(),
  /**
   * The caller follows the call as a stream and takes progress: the agent then sends
   * `{progress: {progress, total?, message?}}` items while the tool reports some, and the reply
   * `{result}` as the last item.
   */
  progress: z.boolean().optional(),
  /** The execution the call belongs to, when a workflow or the studio makes it. */
  executionId: z.string().max(200).optional(),
});
export type AgentInvokeToolMessage = z.input<typeof AgentInvokeToolMessageSchema>;
/** `agent.invokeTool` as its handler receives it (defaults applied). */
export type AgentInvokeToolCall = z.output<typeof AgentInvokeToolMessageSchema>;

/** Reply to `agent.invokeTool`: the (redacted) result. */
export const AgentInvokeToolReplySchema = z.object({ result: z.unknown() });
export type AgentInvokeToolReply = z.infer<typeof AgentInvokeToolReplySchema>;

/**
 * `agent.listTools` to `agent:<internal id>`: the tools beyond the built-in ones that this agent
 * may call (its account's connector tools that its `allowedTools` permit), for `GET /tools` and
 * MCP `tools/list`. Same caller rule as `agent.invokeTool`.
 */
export const AgentListToolsMessageSchema = z.object({});
export const ListedToolSchema = z.object({
  /** A connector tool's `title`, `outputSchema` and `annotations` (schemas/documents/connector.ts). */
  ...McpToolMetadataShape,
  name: z.string(),
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  readOnly: z.boolean(),
});
export type ListedTool = z.infer<typeof ListedToolSchema>;
export const AgentListToolsReplySchema = z.object({ tools: z.array(ListedToolSchema) });
export type AgentListToolsReply = z.infer<typeof AgentListToolsReplySchema>;

export const AGENT_CHANGED_BROADCAST = 'agent.changed';
export const AgentChangedBroadcastSchema = z.object({ agentId: z.string().min(1) });

export const WORKSPACE_PANIC_BROADCAST = 'workspace.panic';
export const WorkspacePanicBroadcastSchema = z.object({
  workspaceId: z.string().min(1),
  active: z.boolean().optional(),
});

/** The cache key of a workspace's panic lockdown flag (any value = locked). */
export const panicFlagKey = (workspaceId: string) => `panic:workspace:${workspaceId}`;
