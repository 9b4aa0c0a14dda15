import { notificationsCollection } from './notifications.collection';
import { randomText } from '../../src/store/random-ids';
import {
  type NotificationDocument,
  type NotificationStatus,
  type NotificationType,
  type NotificationView,
} from '../../schemas/documents/notification';
import { errors } from '../../schemas/errors';
import { InsertBatcher, type DocumentStore, type Repository } from '../../src/store/mongo';

export const newNotificationId = () => `ntf_${randomText(12, 'hex')}`;

/** A new notification of an account. */
export interface NewNotification {
  type: NotificationType;
  title: string;
  body?: string;
  executionId?: string;
  workspaceId?: string;
}

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

export function notificationView(doc: NotificationDocument): NotificationView {
  return {
    id: doc._id,
    notificationId: doc._id,
    type: doc.type,
    title: doc.title,
    body: doc.body,
    status: doc.status,
    executionId: doc.executionId ?? null,
    workspaceId: doc.workspaceId ?? null,
    createdAt: doc.createdAt.toISOString(),
    readAt: doc.readAt ? doc.readAt.toISOString() : null,
  };
}

/**
 * The notifications of operator accounts. Creation is a plain insert (any actor may notify);
 * changes of status go through the account's `notifications` actor, which calls `update` and
 * `markAllRead` (conditional on the account: another tenant's id is NOT_FOUND).
 */
export class NotificationsRepo {
  readonly repo: Repository<NotificationDocument>;
  /** Creations of many requests at once share one insert (a burst of completed executions). */
  private readonly inserts: InsertBatcher<NotificationDocument>;

  constructor(documents: DocumentStore) {
    this.repo = documents.repository(notificationsCollection);
    this.inserts = new InsertBatcher(this.repo);
  }

  async create(accountId: string, input: NewNotification, now = new Date()): Promise<NotificationDocument> {
    const doc = this.document(newNotificationId(), accountId, input, now);
    if (!(await this.inserts.insert(doc))) throw errors.conflict('This notification id is taken');
    return doc;
  }

  /**
   * Creates the notification with id `id` unless it exists: a notification that several runs or
   * nodes may find due (an app update) gets an id derived from what it is about, and only one
   * insert wins. Resolves whether this call created it.
   */
  createOnce(id: string, accountId: string, input: NewNotification, now = new Date()): Promise<boolean> {
    return this.repo.insertIfAbsent(this.document(id, accountId, input, now));
  }

  /** Inserts many at once (panic): one round trip. */
  async createMany(items: Array<{ accountId: string } & NewNotification>, now = new Date()): Promise<void> {
    if (items.length === 0) return;
    const docs = items.map((n) => this.document(newNotificationId(), n.accountId, n, now));
    await this.repo.raw.insertMany(docs, { ordered: false });
  }

  private document(id: string, accountId: string, input: NewNotification, now: Date): NotificationDocument {
    return this.repo.parse({
      _id: id,
      accountId,
      ...(input.workspaceId ? { workspaceId: input.workspaceId } : {}),
      type: input.type,
      title: cut(input.title, 300),
      body: cut(input.body ?? '', 4000),
      status: 'unread',
      ...(input.executionId ? { executionId: input.executionId } : {}),
      createdAt: now,
      updatedAt: now,
      version: 0,
    });
  }

  /** Newest first. */
  list(
    accountId: string,
    filter: { status?: NotificationStatus; type?: NotificationType; limit: number },
  ): Promise<NotificationDocument[]> {
    return this.repo.find(
      {
        accountId,
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.type ? { type: filter.type } : {}),
      },
      { sort: { createdAt: -1, _id: -1 }, limit: filter.limit },
    );
  }

  /** Sets one notification's status (`readAt` set on read, cleared on unread). */
  async update(accountId: string, id: string, status: NotificationStatus): Promise<NotificationDocument> {
    const now = new Date();
    const doc = await this.repo.findOneAndUpdate(
      { _id: id, accountId },
      {
        $set: { status, updatedAt: now, ...(status === 'read' ? { readAt: now } : {}) },
        ...(status === 'unread' ? { $unset: { readAt: '' } } : {}),
        $inc: { version: 1 },
      },
    );
    if (!doc) throw errors.notFound('Notification not found', { notificationId: id });
    return doc;
  }

  /** Every unread notification of the account becomes read; resolves how many. */
  async markAllRead(accountId: string): Promise<number> {
    const now = new Date();
    const res = await this.repo.raw.updateMany(
      { accountId, status: 'unread' },
      { $set: { status: 'read', readAt: now, updatedAt: now }, $inc: { version: 1 } },
    );
    return res.modifiedCount;
  }
}
