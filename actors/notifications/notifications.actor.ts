import { PrincipalSchema } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  NotificationCreateMessageSchema,
  NotificationMarkAllReadMessageSchema,
  NotificationUpdateMessageSchema,
} from '../../schemas/messages/executions';
import { defineActor, type ActorContext } from '../../src/kernel/actor-definition';
import { notificationView, type NotificationsRepo } from './notifications.repo';

/** The caller must belong to the account the actor stands for (else NOT_FOUND: nothing to see). */
function ownAccount(ctx: ActorContext<undefined>): string {
  const principal = PrincipalSchema.safeParse(ctx.auth);
  if (!principal.success) throw errors.unauthorized();
  if (principal.data.accountId !== ctx.id) throw errors.notFound('Notification not found');
  return ctx.id;
}

/**
 * `notifications:<account id>`: the changes operators make to their account's notifications
 * (create, change status, mark all read), one at a time per account. Listing reads the
 * collection directly; other actors create notifications with `NotificationsRepo.create`.
 */
export const notificationsActor = (repo: NotificationsRepo) =>
  defineActor({
    kind: 'notifications',
    messages: {
      'notifications.create': NotificationCreateMessageSchema,
      'notifications.update': NotificationUpdateMessageSchema,
      'notifications.markAllRead': NotificationMarkAllReadMessageSchema,
    },
    handlers: {
      'notifications.create': async (ctx, body) => ({
        notification: notificationView(await repo.create(ownAccount(ctx), body)),
      }),
      'notifications.update': async (ctx, { notificationId, status }) => ({
        notification: notificationView(await repo.update(ownAccount(ctx), notificationId, status)),
      }),
      'notifications.markAllRead': async (ctx) => ({ updated: await repo.markAllRead(ownAccount(ctx)) }),
    },
  });
