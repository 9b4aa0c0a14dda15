import { z } from 'zod';

/** Where an agent came from: `POST /register` (self-registered) or `POST /api/agents` (deployed). */
export const AgentOriginSchema = z.enum(['registered', 'deployed']);

/**
 * Agent states. `active`; `disabled` (set by the operator with `PATCH /api/agents`: every tool call
 * is refused); `suspended` is reserved.
 */
export const AgentStatusSchema = z.enum(['active', 'disabled', 'suspended']);
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

/** `ownerKey` of self-registered agents (they have no operator account). */
export const PUBLIC_OWNER = 'public';

/**
 * One agent (collection `agents`), self-registered or deployed by an operator. The tool router
 * reads `allowedDomains`, `allowedTools`, `status` and `accountId`/`workspaceId` from here.
 *
 * `_id` is the internal id (`agt_…`): it is the `sub` of the agent's bearer token and the actor
 * address (`agent:<_id>`), and is **never** returned in a response body. Callers see `agentRef`.
 */
export const AgentDocumentSchema = z.object({
  _id: z.string().min(1),
  version: z.number().int().nonnegative(),
  /** Public, random, unguessable reference: `agref-…`. */
  agentRef: z.string().startsWith('agref-'),
  origin: AgentOriginSchema,
  /** Namespace of `nameKey` uniqueness: the operator's account id, or `public`. */
  ownerKey: z.string().min(1),
  /** Operator account (deployed agents only). */
  accountId: z.string().optional(),
  /** The operator's default workspace when one is known. */
  workspaceId: z.string().optional(),
  name: z.string().min(1).max(100),
  /** `name` lower-cased: names are unique per owner regardless of case. */
  nameKey: z.string().min(1).max(100),
  description: z.string().max(1000).optional(),
  ownerEmail: z.string().optional(),
  isSubagent: z.boolean(),
  parentAgentRef: z.string().optional(),
  status: AgentStatusSchema,
  /** Outbound domain allowlist; empty = every domain. */
  allowedDomains: z.array(z.string()),
  /** Tool names and patterns (`mem_*`); registration fills every built-in primitive by default. */
  allowedTools: z.array(z.string()),
  totalCalls: z.number().int().nonnegative(),
  lastActiveAt: z.date().nullable(),
  createdAt: z.date(),
});
export type AgentDocument = z.infer<typeof AgentDocumentSchema>;
