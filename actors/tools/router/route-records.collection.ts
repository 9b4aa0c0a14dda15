import {
  RoutePageDocumentSchema,
  RouteRecordDocumentSchema,
  RouteStatDocumentSchema,
} from '../../../schemas/documents/route-record';
import { defineCollection } from '../../../src/store/mongo';

/** How long route records are kept (TTL indexes), in seconds: 7 days. */
export const ROUTE_RECORD_RETENTION_SEC = 7 * 24 * 3600;

/**
 * `route_pages`: the route records, one page per flush of a process (`RoutePageDocumentSchema`).
 * A page expires 7 days after its newest record. The multikey indexes on the owners serve the two
 * listings of `GET /api/ffp/routes` (an agent's latest, an account's latest).
 */
export const routePagesCollection = defineCollection({
  name: 'route_pages',
  schema: RoutePageDocumentSchema,
  indexes: [
    { key: { until: 1 }, name: 'until_ttl', expireAfterSeconds: ROUTE_RECORD_RETENTION_SEC },
    { key: { agentIds: 1, until: -1 }, name: 'agents_until' },
    { key: { accountIds: 1, until: -1 }, name: 'accounts_until' },
  ],
});

/**
 * `route_records`: one document per call, as versions before the pages wrote them. Read by the
 * listings until its TTL index has expired the last of them (7 days after an upgrade); nothing
 * writes it any more.
 */
export const routeRecordsCollection = defineCollection({
  name: 'route_records',
  schema: RouteRecordDocumentSchema,
  indexes: [
    { key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: ROUTE_RECORD_RETENTION_SEC },
    { key: { agentId: 1, at: -1 }, name: 'agent_at' },
    { key: { accountId: 1, at: -1 }, name: 'account_at', sparse: true },
  ],
});

/** `route_stats`: executions per primitive per owner (`agent:<id>`, `account:<id>`), all time. */
export const routeStatsCollection = defineCollection({
  name: 'route_stats',
  schema: RouteStatDocumentSchema,
  indexes: [{ key: { ownerKey: 1 }, name: 'owner' }],
});

export const routeCollections = [routePagesCollection, routeRecordsCollection, routeStatsCollection] as const;
