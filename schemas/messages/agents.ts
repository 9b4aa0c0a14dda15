import { z } from 'zod';
import {
  AgentDetailViewSchema,
  CreateAgentBodySchema,
  DeployedAgentViewSchema,
  RegisterBodySchema,
  UpdateAgentBodySchema,
} from '../http/agents';

/**
 * Messages of the agent actors (`actors/identity/`).
 *
 * - `agents:public` (self-registration) and `agents:<accountId>` (an operator's deployed agents):
 *   `agents.register`, `agents.create`, `agents.list`, `agents.update`.
 * - `agent:<internal id>`: `agent.get`, `agent.policy`, `agent.recordCall`, `agent.flush`.
 */
export const AgentsRegisterMessageSchema = RegisterBodySchema;
export const AgentsCreateMessageSchema = CreateAgentBodySchema;
export const AgentsListMessageSchema = z.object({});
/** `agents.update` (`PATCH /api/agents`): the operator changes one of its agents. */
export const AgentsUpdateMessageSchema = UpdateAgentBodySchema;

/** Reply to `agents.register`: the new agent's token and its effective lists. */
export const AgentsRegisterReplySchema = z.object({
  token: z.string(),
  allowedDomains: z.array(z.string()),
  allowedTools: z.array(z.string()),
});
export type AgentsRegisterReply = z.infer<typeof AgentsRegisterReplySchema>;

/** Reply to `agents.create`. */
export const AgentsCreateReplySchema = z.object({ agent: DeployedAgentViewSchema, apiKey: z.string() });
export type AgentsCreateReply = z.infer<typeof AgentsCreateReplySchema>;

/** Reply to `agents.update`. */
export const AgentsUpdateReplySchema = z.object({ agent: AgentDetailViewSchema });
export type AgentsUpdateReply = z.infer<typeof AgentsUpdateReplySchema>;

/** Reply to `agents.list`. */
export const AgentsListReplySchema = z.object({ agents: z.array(DeployedAgentViewSchema) });
export type AgentsListReply = z.infer<typeof AgentsListReplySchema>;

export const AgentGetMessageSchema = z.object({});

/** Reply to `agent.get`: the registration record (ISO timestamps), never the internal id. */
export const AgentRecordSchema = z.object({
  name: z.string(),
  status: z.string(),
  allowedDomains: z.array(z.string()),
  allowedTools: z.array(z.string()),
  totalCalls: z.number().int(),
  lastActiveAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AgentRecord = z.infer<typeof AgentRecordSchema>;

export const AgentPolicyMessageSchema = z.object({});

/**
 * Reply to `agent.policy`: what the tool router needs to authorise a call. Internal: it carries
 * the operator's account id and must not be sent to clients as is.
 */
export const AgentPolicySchema = z.object({
  agentRef: z.string(),
  accountId: z.string().optional(),
  workspaceId: z.string().optional(),
  status: z.string(),
  isSubagent: z.boolean(),
  allowedDomains: z.array(z.string()),
  allowedTools: z.array(z.string()),
});
export type AgentPolicy = z.infer<typeof AgentPolicySchema>;

/**
 * `agent.recordCall` (usually `tell`): counts `calls` tool calls made at `at` (epoch ms, default
 * now). Cheap: counted in memory and written in batches (see the agent actor).
 */
export const AgentRecordCallMessageSchema = z.object({
  at: z.number().int().positive().optional(),
  calls: z.number().int().min(1).max(10_000).default(1),
});

/** `agent.flush`: writes the counted calls now (sent by the actor to itself). */
export const AgentFlushMessageSchema = z.object({});
