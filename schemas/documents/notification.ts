import { z } from 'zod';

/**
 * Notifications of an operator account (collection `notifications`, `_id` `ntf_…`, public).
 * docs/executions.md, "Notifications".
 */

export const NOTIFICATION_TYPES = ['task', 'approval', 'workflow', 'recovery', 'panic'] as const;
export const NotificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationTypeSchema>;

export const NOTIFICATION_STATUSES = ['unread', 'read', 'archived'] as const;
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES);
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;

export const NOTIFICATION_LIMITS = Object.freeze({ maxTitle: 300, maxBody: 4000 });

export const NotificationDocumentSchema = z.object({
  _id: z.string().regex(/^ntf_[a-f0-9]{24}$/),
  accountId: z.string(),
  workspaceId: z.string().optional(),
  type: NotificationTypeSchema,
  title: z.string().max(NOTIFICATION_LIMITS.maxTitle),
  body: z.string().max(NOTIFICATION_LIMITS.maxBody),
  status: NotificationStatusSchema,
  executionId: z.string().optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
  readAt: z.date().optional(),
  version: z.number().int().nonnegative(),
});
export type NotificationDocument = z.infer<typeof NotificationDocumentSchema>;

/** The public view (`id` and `notificationId` are the same value: the spec names the latter). */
export const NotificationViewSchema = z.object({
  id: z.string(),
  notificationId: z.string(),
  type: NotificationTypeSchema,
  title: z.string(),
  body: z.string(),
  status: NotificationStatusSchema,
  executionId: z.string().nullable(),
  workspaceId: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationView = z.infer<typeof NotificationViewSchema>;
