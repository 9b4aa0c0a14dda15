import { z } from 'zod';

export const PlanIdSchema = z.enum(['retail_free', 'retail_pro', 'enterprise_plus', 'enterprise_max']);
export const AccountTypeSchema = z.enum(['retail', 'enterprise']);

/**
 * An operator account (collection `accounts`, `_id` `acc_…`, never returned in a body). Written only
 * by the `account:<id>` actor and, for its creation, by `accounts:directory`.
 */
export const AccountDocumentSchema = z.object({
  _id: z.string().regex(/^acc_[a-f0-9]{24}$/),
  /** Normalized (trimmed, lower-case); unique. */
  email: z.string(),
  /** bcrypt hash; never leaves the identity actors. */
  passwordHash: z.string(),
  /** Display name as given; absent when none was given at signup. */
  agentName: z.string().optional(),
  /** Lower-cased `agentName`: unique among accounts (partial index, only when set). */
  agentNameKey: z.string().optional(),
  accountType: AccountTypeSchema,
  plan: PlanIdSchema,
  planSelectionSkipped: z.boolean(),
  /** The default workspace provisioned at signup. */
  defaultWorkspaceId: z.string(),
  /** A pending password reset: sha256 (hex) of the mailed token, single use. */
  reset: z.object({ tokenHash: z.string(), expiresAt: z.date() }).optional(),
  passwordChangedAt: z.date().optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
  version: z.number().int().nonnegative(),
});
export type AccountDocument = z.infer<typeof AccountDocumentSchema>;

/** A workspace (collection `workspaces`, `_id` `ws_…`): the default one is provisioned at signup. */
export const WorkspaceDocumentSchema = z.object({
  _id: z.string(),
  ownerAccountId: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  members: z.array(z.object({ accountId: z.string(), role: z.enum(['owner', 'admin', 'member']) })),
  createdAt: z.date(),
  version: z.number().int().nonnegative(),
});
export type WorkspaceDocument = z.infer<typeof WorkspaceDocumentSchema>;

/** One recorded plan change (collection `plan_transitions`); billing is free beta: nothing charged. */
export const PlanTransitionDocumentSchema = z.object({
  _id: z.string(),
  accountId: z.string(),
  oldPlan: PlanIdSchema,
  newPlan: PlanIdSchema,
  oldAccountType: AccountTypeSchema,
  newAccountType: AccountTypeSchema,
  reason: z.string(),
  billing: z.object({ mode: z.literal('free_beta'), charged: z.literal(false) }),
  at: z.date(),
});
export type PlanTransitionDocument = z.infer<typeof PlanTransitionDocumentSchema>;
