import { AccountDocumentSchema, PlanTransitionDocumentSchema } from '../../schemas/documents/account';
import { defineCollection } from '../../src/store/mongo';

export const accountsCollection = defineCollection({
  name: 'accounts',
  schema: AccountDocumentSchema,
  indexes: [
    { key: { email: 1 }, name: 'email_unique', unique: true },
    {
      key: { agentNameKey: 1 },
      name: 'agentNameKey_unique',
      unique: true,
      partialFilterExpression: { agentNameKey: { $type: 'string' } },
    },
  ],
});
export const planTransitionsCollection = defineCollection({
  name: 'plan_transitions',
  schema: PlanTransitionDocumentSchema,
  indexes: [{ key: { accountId: 1, at: -1 }, name: 'accountId_at' }],
});
