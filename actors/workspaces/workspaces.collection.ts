import { WorkspaceDocumentSchema } from '../../schemas/documents/account';
import { defineCollection } from '../../src/store/mongo';

export const workspacesCollection = defineCollection({
  name: 'workspaces',
  schema: WorkspaceDocumentSchema,
  indexes: [{ key: { ownerAccountId: 1 }, name: 'ownerAccountId' }],
});
