import { MembershipEpochDocumentSchema } from '../../schemas/documents/workspace-membership-epoch';
import { defineCollection } from '../../src/store/mongo';

export const membershipEpochsCollection = defineCollection({
  name: 'workspace_membership_epochs',
  schema: MembershipEpochDocumentSchema,
});
