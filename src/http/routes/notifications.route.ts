import { notificationView } from '../../../actors/notifications/notifications.repo';
import {
  NotificationBulkBodySchema,
  NotificationBulkResponseSchema,
  NotificationCreateBodySchema,
  NotificationListQuerySchema,
  NotificationListResponseSchema,
  NotificationResponseSchema,
  NotificationUpdateBodySchema,
} from '../../../schemas/http/notifications';
import type { RouteModule } from '../app.types';
import { parseBody, parseQuery } from '../validation';
import { accountCaller, executionsOf } from './executions-common';

/**
 * `/api/notifications` (docs/executions.md, "Notifications"): the caller's account's
 * notifications. `GET` lists (newest first, `?status=&type=&limit=`); `POST` takes one of three
 * bodies: `{action: 'mark_all_read'}`, `{notificationId, status}` (update) or `{title, …}` (create).
 */
export const notificationsRoute: RouteModule = (router, deps) => {
  router.get('/api/notifications', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const query = parseQuery(NotificationListQuerySchema, req);
    const docs = await executionsOf(deps).notifications.list(caller.accountId, query);
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
