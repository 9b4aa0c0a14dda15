import { randomBytes } from 'node:crypto';
import { AgentDocumentSchema, type AgentDocument } from '../../schemas/documents/agent';
import type { AgentDetailView, DeployedAgentView } from '../../schemas/http/agents';
import type { AgentRecord } from '../../schemas/messages/agents';
import { defineCollection } from '../../src/store/mongo';

/**
 * `agents`: self-registered and deployed agents in one collection.
 *
 * - `owner_name_unique`: a name is unique per owner (operator account, or `public` for
 *   self-registered agents), case-insensitively (`nameKey`).
 * - `agent_ref_unique`: public references never collide.
 * - `account_created`: an operator's agents in creation order (`GET /api/agents`).
 */
export const agentsCollection = defineCollection({
  name: 'agents',
  schema: AgentDocumentSchema,
  indexes: [
    { key: { ownerKey: 1, nameKey: 1 }, name: 'owner_name_unique', unique: true },
    { key: { agentRef: 1 }, name: 'agent_ref_unique', unique: true },
    { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
  ],
});

/** Prefix of internal agent ids. Internal ids are never returned in a response body. */
export const AGENT_ID_PREFIX = 'agt_';
/** Prefix of public agent references. */
export const AGENT_REF_PREFIX = 'agref-';

/** A new internal id: `agt_` + the private agent id when given, else 128 random bits. */
export function newAgentId(privateId?: string): string {
  return AGENT_ID_PREFIX + (privateId ?? randomBytes(16).toString('hex'));
}

/** A new public reference: `agref-` + 128 random bits (unguessable, unrelated to the internal id). */
export function newAgentRef(): string {
  return AGENT_REF_PREFIX + randomBytes(16).toString('base64url');
}

/** The public view of a deployed agent. */
export function deployedAgentView(doc: AgentDocument): DeployedAgentView {
  return { agentRef: doc.agentRef, name: doc.name, isSubagent: doc.isSubagent, status: doc.status };
}

/** A deployed agent with its effective lists (`PATCH /api/agents`). */
export function agentDetailView(doc: AgentDocument): AgentDetailView {
  return { ...deployedAgentView(doc), allowedTools: doc.allowedTools, allowedDomains: doc.allowedDomains };
}

/** The registration record (`GET /agent/me`), with calls counted but not yet written. */
export function agentRecord(
  doc: AgentDocument,
  pending: { calls: number; lastActiveAt: number | null },
): AgentRecord {
  const stored = doc.lastActiveAt?.getTime() ?? null;
  const last =
    pending.lastActiveAt !== null && (stored === null || pending.lastActiveAt > stored)
      ? pending.lastActiveAt
      : stored;
  return {
    name: doc.name,
    status: doc.status,
    allowedDomains: doc.allowedDomains,
    allowedTools: doc.allowedTools,
    totalCalls: doc.totalCalls + pending.calls,
    lastActiveAt: last === null ? null : new Date(last).toISOString(),
    createdAt: doc.createdAt.toISOString(),
  };
}
