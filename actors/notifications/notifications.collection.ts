import { NotificationDocumentSchema } from '../../schemas/documents/notification';
import { defineCollection } from '../../src/store/mongo';

export const notificationsCollection = defineCollection({
  name: 'notifications',
  schema: NotificationDocumentSchema,
  indexes: [
    { key: { accountId: 1, createdAt: -1 }, name: 'account_recent' },
    { key: { accountId: 1, status: 1 }, name: 'account_status' },
  ],
});
