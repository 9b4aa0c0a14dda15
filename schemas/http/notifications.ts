import { z } from 'zod';
import {
  NOTIFICATION_LIMITS,
  NotificationStatusSchema,
  NotificationTypeSchema,
  NotificationViewSchema,
} from '../documents/notification';

/** `/api/notifications` (docs/executions.md, "Notifications"). */

export const NOTIFICATION_LIST_LIMITS = Object.freeze({ defaultLimit: 50, maxLimit: 200 });

export const NotificationListQuerySchema = z.object({
  status: NotificationStatusSchema.optional(),
  type: NotificationTypeSchema.optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(NOTIFICATION_LIST_LIMITS.maxLimit)
    .default(NOTIFICATION_LIST_LIMITS.defaultLimit),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuerySchema>;

/** `{notificationId, status}`: one notification changes status. */
export const NotificationUpdateBodySchema = z.object({
  notificationId: z.string().trim().min(1).max(100),
  status: NotificationStatusSchema,
});

/** `{title, body?, type?, executionId?}`: a new notification of the caller's account. */
export const NotificationCreateBodySchema = z.object({
  title: z.string().trim().min(1).max(NOTIFICATION_LIMITS.maxTitle),
  body: z.string().max(NOTIFICATION_LIMITS.maxBody).default(''),
  type: NotificationTypeSchema.default('task'),
  executionId: z.string().trim().min(1).max(200).optional(),
});

/** `{action: 'mark_all_read'}`: every unread notification of the account becomes read. */
export const NotificationBulkBodySchema = z.object({ action: z.literal('mark_all_read') });

export const NotificationListResponseSchema = z.object({ notifications: z.array(NotificationViewSchema) });
export const NotificationResponseSchema = z.object({ notification: NotificationViewSchema });
export const NotificationBulkResponseSchema = z.object({ updated: z.number().int() });
