import { notificationsCollection } from '../notifications/notifications.collection';
import type { DocumentStore } from '../../src/store/mongo';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The `notification-retention` duty's pass: deletes read and archived notifications created more
 * than `days` days ago (unread ones are kept whatever their age: nobody has seen them). One
 * `deleteMany`; resolves how many it deleted.
 */
export async function deleteOldNotifications(
  documents: Pick<DocumentStore, 'repository'>,
  days: number,
  now = Date.now(),
): Promise<number> {
  if (days <= 0) return 0;
  return documents.repository(notificationsCollection).deleteMany({
    status: { $in: ['read', 'archived'] },
    createdAt: { $lt: new Date(now - days * DAY_MS) },
  });
}
