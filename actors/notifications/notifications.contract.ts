import { z } from 'zod';
import {
  NotificationBulkBodySchema,
  NotificationBulkResponseSchema,
  NotificationCreateBodySchema,
  NotificationListQuerySchema,
  NotificationListResponseSchema,
  NotificationResponseSchema,
  NotificationUpdateBodySchema,
} from '../../schemas/http/notifications';
import { defineContracts } from '../../src/http/openapi/contract';

/** notifications.route.ts: one POST whose body says what it does. */
export const notificationContracts = defineContracts('Notifications', [
  {
    method: 'get',
    path: '/api/notifications',
    summary: "The account's notifications, newest first",
    auth: 'sb',
    query: NotificationListQuerySchema,
    responses: { 200: NotificationListResponseSchema },
  },
  {
    method: 'post',
    path: '/api/notifications',
    summary: 'Create (`{title…}`), change status (`{notificationId, status}`) or mark all read (`{action}`)',
    auth: 'sb',
    body: z.union([NotificationBulkBodySchema, NotificationUpdateBodySchema, NotificationCreateBodySchema]),
    bodyExample: { notificationId: 'ntf_…', status: 'read' },
    responses: {
      200: {
        description: 'Updated',
        schema: z.union([NotificationResponseSchema, NotificationBulkResponseSchema]),
      },
      201: NotificationResponseSchema,
    },
    errors: [404],
    idempotent: true,
  },
]);
