import { z } from 'zod';
import { AccountTypeSchema, PlanIdSchema } from '../documents/account';

/** Address of the accounts directory (operations keyed by email, account creation). */
export const ACCOUNTS_DIRECTORY = 'accounts:directory';
/** Address of one account's actor. */
export const accountAddress = (accountId: string) => `account:${accountId}`;

// ---- accounts:directory ----

/** `accounts.signup`: fields already validated and normalized by the front door. */
export const SignupMessageSchema = z.object({
  email: z.string(),
  password: z.string(),
  agentName: z.string().optional(),
  accountType: AccountTypeSchema,
  selectedPlan: PlanIdSchema,
  planSelectionSkipped: z.boolean().default(false),
});

export const CredentialsSchema = z.object({
  bearerToken: z.string().nullable(),
  apiKey: z.string().nullable(),
  expiresIn: z.string(),
});

/** Reply of `accounts.signup`. `accountId` is for the session only: never put in a body. */
export const SignupReplySchema = z.object({
  accountId: z.string(),
  credentials: CredentialsSchema.extend({
    plan: PlanIdSchema,
    planLabel: z.string(),
    capabilities: z.array(z.string()),
  }),
});
export type SignupReply = z.infer<typeof SignupReplySchema>;

export const SigninMessageSchema = z.object({ email: z.string(), password: z.string() });
export const SigninReplySchema = z.object({
  accountId: z.string(),
  credentials: CredentialsSchema.extend({ agentName: z.string() }),
});
export type SigninReply = z.infer<typeof SigninReplySchema>;

export const ForgotPasswordMessageSchema = z.object({ email: z.string() });

export const ConfirmResetMessageSchema = z.object({
  email: z.string(),
  token: z.string(),
  newPassword: z.string(),
});
/** Reply of `accounts.confirmReset`: whose sessions the front door must end. */
export const ConfirmResetReplySchema = z.object({ accountId: z.string() });

export const CreateLoginLinkMessageSchema = z.object({
  accountId: z.string(),
  redirectTo: z.string().optional(),
});
export const CreateLoginLinkReplySchema = z.object({ st: z.string(), expiresIn: z.number().int() });

export const RedeemLoginLinkMessageSchema = z.object({ st: z.string() });
export const RedeemLoginLinkReplySchema = z.object({
  accountId: z.string(),
  redirectTo: z.string().optional(),
});

// ---- account:<id> ----

export const ProfileMessageSchema = z.object({});
export const ProfileReplySchema = z.object({
  agentName: z.string(),
  accountType: AccountTypeSchema,
  plan: PlanIdSchema,
  planLabel: z.string(),
  capabilities: z.array(z.string()),
});
export type ProfileReply = z.infer<typeof ProfileReplySchema>;

export const IssueTokenMessageSchema = z.object({});

export const TransitionPlanMessageSchema = z.object({
  newPlan: PlanIdSchema,
  reason: z.string(),
});
export const TransitionPlanReplySchema = z.object({
  transitioned: z.boolean(),
  noChange: z.boolean(),
  transition: z.object({
    oldPlan: PlanIdSchema,
    newPlan: PlanIdSchema,
    newCapabilities: z.array(z.string()),
  }),
  billing: z.object({ mode: z.literal('free_beta'), charged: z.literal(false) }),
});
export type TransitionPlanReply = z.infer<typeof TransitionPlanReplySchema>;

/** `account.startReset`: remember the hash of a freshly mailed reset token (replaces any older one). */
export const StartResetMessageSchema = z.object({ tokenHash: z.string(), expiresAtMs: z.number().int() });

/** `account.completeReset`: consume the token (single use) and set the new password hash. */
export const CompleteResetMessageSchema = z.object({ tokenHash: z.string(), passwordHash: z.string() });
