import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { displayNameSchema } from '../display-text';
import { AllowedToolsSchema, BUILTIN_PRIMITIVES } from '../tools/primitives';

/** Most entries an `allowedDomains` list may hold. */
export const MAX_ALLOWED_DOMAINS = 200;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A hostname, an IPv4 address, or `*.` + hostname; lower-cased, IDN in ASCII form, no trailing dot. */
function normaliseDomain(raw: string): string | undefined {
  let value = raw.trim().toLowerCase().replace(/\.$/, '');
  const wildcard = value.startsWith('*.');
  if (wildcard) value = value.slice(2);
  if (IPV4.test(value)) return wildcard ? undefined : value;
  // Rejects schemes, ports, paths, spaces and other characters a hostname cannot hold.
  if (!/^[\p{L}\p{N}.-]+$/u.test(value)) return undefined;
  const ascii = domainToASCII(value);
  if (!ascii || ascii.length > 253 || !ascii.split('.').every((l) => LABEL.test(l))) return undefined;
  return wildcard ? `*.${ascii}` : ascii;
}

/** One `allowedDomains` entry: `api.example.com`, `*.example.com` or an IPv4 address. */
export const AllowedDomainSchema = z
  .string()
  .max(260)
  .transform((raw, ctx) => {
    const domain = normaliseDomain(raw);
    if (domain === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a hostname (api.example.com), *.example.com or an IPv4 address, without scheme, port or path',
      });
      return z.NEVER;
    }
    return domain;
  });

/** `allowedDomains`: empty (the default) allows every domain; duplicates removed. */
export const AllowedDomainsSchema = z
  .array(AllowedDomainSchema)
  .max(MAX_ALLOWED_DOMAINS)
  .transform((domains) => [...new Set(domains)]);

/** Display name of an agent: trimmed, 1 to 100 characters, no control character (display-text.ts). */
export const AgentNameSchema = displayNameSchema(100);

/** Optional free text. */
export const AgentDescriptionSchema = z.string().trim().max(1000);

/**
 * `POST /register`. `allowedTools` absent or empty = every built-in primitive. `agentId` is the
 * optional private agent id (`^[a-z0-9-]+$`): it becomes part of the internal id and is never
 * returned.
 */
export const RegisterBodySchema = z.object({
  name: AgentNameSchema,
  description: AgentDescriptionSchema.optional(),
  ownerEmail: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be a valid email address' }))
    .optional(),
  allowedDomains: AllowedDomainsSchema.default([]),
  allowedTools: AllowedToolsSchema.optional().transform((tools) =>
    tools && tools.length > 0 ? tools : [...BUILTIN_PRIMITIVES],
  ),
  agentId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9-]+$/, 'must match ^[a-z0-9-]+$')
    .optional(),
});
export type RegisterBody = z.output<typeof RegisterBodySchema>;

/** `POST /register` answer (201). The token is an agent bearer token valid 90 days. */
export const RegisterResponseSchema = z.object({
  token: z.string(),
  expiresIn: z.literal('90d'),
  allowedDomains: z.array(z.string()),
  allowedTools: z.array(z.string()),
  mcpEndpoint: z.string(),
  toolsEndpoint: z.string(),
});
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

/** `GET /agent/me`: the registration record (no token, no internal id). */
export const AgentMeResponseSchema = z.object({
  name: z.string(),
  status: z.string(),
  allowedDomains: z.array(z.string()),
  allowedTools: z.array(z.string()),
  totalCalls: z.number().int(),
  lastActiveAt: z.string().nullable(),
  createdAt: z.string(),
  mcpEndpoint: z.string(),
  toolsEndpoint: z.string(),
});
export type AgentMeResponse = z.infer<typeof AgentMeResponseSchema>;

/** A public agent reference as a request field. */
const AgentRefSchema = z.string().trim().min(1).max(100);

/**
 * `POST /api/agents`. `parentAgentRef` (an agent of the caller) makes the new agent its subagent.
 * `allowedTools` and `allowedDomains` are validated as for `/register`; absent (or an empty
 * `allowedTools`) = the default: the parent's lists for a subagent, else every built-in primitive
 * and every domain. A subagent's lists may not exceed its parent's (checked by the directory).
 */
export const CreateAgentBodySchema = z.object({
  name: AgentNameSchema,
  description: AgentDescriptionSchema.optional(),
  parentAgentRef: AgentRefSchema.optional(),
  allowedTools: AllowedToolsSchema.optional(),
  allowedDomains: AllowedDomainsSchema.optional(),
});
export type CreateAgentBody = z.output<typeof CreateAgentBodySchema>;

/** Statuses an operator may set with `PATCH /api/agents`. */
export const SETTABLE_AGENT_STATUSES = ['active', 'disabled'] as const;

/**
 * `PATCH /api/agents`: changes one of the operator's agents. `allowedTools: []` = the agent's
 * default list (a subagent: its parent's; the account's default agent: every built-in primitive and
 * `mcp.*`; others: every built-in primitive); `allowedDomains: []` = every domain.
 */
export const UpdateAgentBodySchema = z
  .object({
    agentRef: AgentRefSchema,
    allowedTools: AllowedToolsSchema.optional(),
    allowedDomains: AllowedDomainsSchema.optional(),
    status: z.enum(SETTABLE_AGENT_STATUSES).optional(),
  })
  .refine((b) => b.allowedTools !== undefined || b.allowedDomains !== undefined || b.status !== undefined, {
    message: 'nothing to change: give allowedTools, allowedDomains or status',
  });
export type UpdateAgentBody = z.output<typeof UpdateAgentBodySchema>;

/** A deployed agent as listed: never its internal id. */
export const DeployedAgentViewSchema = z.object({
  agentRef: z.string(),
  name: z.string(),
  isSubagent: z.boolean(),
  status: z.string(),
});
export type DeployedAgentView = z.infer<typeof DeployedAgentViewSchema>;

/** An agent as `PATCH /api/agents` answers it: the listed fields and its effective lists. */
export const AgentDetailViewSchema = DeployedAgentViewSchema.extend({
  allowedTools: z.array(z.string()),
  allowedDomains: z.array(z.string()),
});
export type AgentDetailView = z.infer<typeof AgentDetailViewSchema>;

/** `PATCH /api/agents` answer. */
export const UpdateAgentResponseSchema = z.object({ agent: AgentDetailViewSchema });
export type UpdateAgentResponse = z.infer<typeof UpdateAgentResponseSchema>;

/** `GET /api/agents`. */
export const ListAgentsResponseSchema = z.object({ agents: z.array(DeployedAgentViewSchema) });
export type ListAgentsResponse = z.infer<typeof ListAgentsResponseSchema>;

/** `POST /api/agents` answer (201): `apiKey` is the new agent's bearer token, shown once. */
export const CreateAgentResponseSchema = z.object({ agent: DeployedAgentViewSchema, apiKey: z.string() });
export type CreateAgentResponse = z.infer<typeof CreateAgentResponseSchema>;
