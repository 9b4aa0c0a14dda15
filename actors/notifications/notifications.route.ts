import type { Response } from 'express';
import { errors } from '../../schemas/errors';
import { notificationView } from './notifications.repo';
import {
  NotificationBulkBodySchema,
  NotificationBulkResponseSchema,
  NotificationCreateBodySchema,
  NotificationListQuerySchema,
  NotificationListResponseSchema,
  NotificationResponseSchema,
  NotificationUpdateBodySchema,
} from '../../schemas/http/notifications';
import type { RouteModule } from '../../src/http/app.types';
import { parseBody, parseQuery } from '../../src/http/validation';
import { requireAccount } from '../../src/http/auth';
import type { NotificationsRepo } from './notifications.repo';

/** What the notifications routes read from the process's services (the executions service keeps them). */
interface NotificationsRouteServices {
  readonly executions: { readonly notifications: NotificationsRepo };
}

const accountCaller = (res: Response) =>
  requireAccount(
    res,
    'Executions and notifications belong to an operator account: use an account session or token',
  );

function notificationsOf(deps: { services?: NotificationsRouteServices }): NotificationsRepo {
  if (!deps.services) throw errors.unavailable('Notifications are not available on this node');
  return deps.services.executions.notifications;
}

/**
 * `/api/notifications` (docs/executions.md, "Notifications"): the caller's account's
 * notifications. `GET` lists (newest first, `?status=&type=&limit=`); `POST` takes one of three
 * bodies: `{action: 'mark_all_read'}`, `{notificationId, status}` (update) or `{title, …}` (create).
 */
export const notificationsRoute: RouteModule<NotificationsRouteServices> = (router, deps) => {
  router.get('/api/notifications', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const query = parseQuery(NotificationListQuerySchema, req);
    const docs = await notificationsOf(deps).list(caller.accountId, query);
    res.json(NotificationListResponseSchema.parse({ notifications: docs.map(notificationView) }));
  });

  router.post('/api/notifications', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const raw: unknown = req.body ?? {};
    const has = (key: string) => typeof raw === 'object' && raw !== null && key in raw;
    const to = `notifications:${caller.accountId}`;
    const options = { auth: caller };
    if (has('action')) {
      parseBody(NotificationBulkBodySchema, req);
      const reply = await deps.system.ask(to, 'notifications.markAllRead', {}, options);
      res.json(NotificationBulkResponseSchema.parse(reply));
    } else if (has('notificationId')) {
      const body = parseBody(NotificationUpdateBodySchema, req);
      res.json(
        NotificationResponseSchema.parse(await deps.system.ask(to, 'notifications.update', body, options)),
      );
    } else {
      const body = parseBody(NotificationCreateBodySchema, req);
      const reply = await deps.system.ask(to, 'notifications.create', body, options);
      res.status(201).json(NotificationResponseSchema.parse(reply));
    }
  });
};
