import { ExecutionDocumentSchema, ExecutionLogDocumentSchema } from '../../schemas/documents/execution';
import { defineCollection } from '../../src/store/mongo';

export const executionsCollection = defineCollection({
  name: 'executions',
  schema: ExecutionDocumentSchema,
  indexes: [
    { key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_recent' },
    { key: { workspaceId: 1, status: 1 }, name: 'workspace_status' },
    // The sweeper's query: only executions with a step in flight have a lease.
    { key: { 'current.leaseUntil': 1 }, name: 'lease_until', sparse: true },
  ],
});
export const executionLogsCollection = defineCollection({
  name: 'execution_logs',
  schema: ExecutionLogDocumentSchema,
  indexes: [{ key: { executionId: 1, seq: 1 }, name: 'execution_seq' }],
});
