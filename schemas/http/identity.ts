import { z } from 'zod';
import { displayNameSchema } from '../display-text';
import { AccountTypeSchema, PlanIdSchema } from '../documents/account';

/** Emails are trimmed and lower-cased before they are checked and stored. */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'));

/** bcrypt reads at most 72 bytes: a longer password would be silently truncated, so it is refused. */
export const NewPasswordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .refine((p) => Buffer.byteLength(p, 'utf8') <= 72, 'must be at most 72 bytes (UTF-8)');

/** A password being checked: any non-empty string (length rules are for new passwords). */
const PasswordSchema = z.string().min(1, 'is required').max(1024, 'is too long');

/** The default agent's name at signup (the display-name rule of schemas/display-text.ts). */
export const AgentNameSchema = displayNameSchema(64);

/** POST /api/signup. */
export const SignupBodySchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  agentName: AgentNameSchema.optional(),
  accountType: AccountTypeSchema,
  selectedPlan: PlanIdSchema,
  planSelectionSkipped: z.boolean().default(false),
});

/** POST /api/signin. */
export const SigninBodySchema = z.object({ email: EmailSchema, password: PasswordSchema });

/** POST /api/forgot-password. */
export const ForgotPasswordBodySchema = z.object({ email: EmailSchema });

/** POST /api/forgot-password/confirm. */
export const ConfirmResetBodySchema = z.object({
  email: EmailSchema,
  token: z.string().min(1, 'is required').max(200, 'is too long'),
  newPassword: NewPasswordSchema,
});

/** An in-app path to go to after a login link: `/…`, never `//host` or a backslash trick. */
export const SafeRedirectSchema = z
  .string()
  .max(512)
  .refine((s) => /^\/(?![/\\])[^\s\\]*$/.test(s), 'must be a path on this site starting with a single /');

/** POST /api/session/from-key. */
export const FromKeyBodySchema = z.object({
  apiKey: z.string().min(1, 'is required').max(4096, 'is too long'),
  redirectTo: SafeRedirectSchema.optional(),
});

/** GET /api/session/from-key/callback. */
export const FromKeyCallbackQuerySchema = z.object({
  st: z.string().min(1, 'is required').max(200, 'is too long'),
});

/** POST /api/plans/transition. */
export const PlanTransitionBodySchema = z.object({
  newPlan: PlanIdSchema,
  reason: z.string().trim().min(1).max(200).default('beta_self_serve_upgrade'),
});

// ---- responses (parsed before sending: only these fields ever leave) ----

const CredentialsFields = {
  bearerToken: z.string().nullable(),
  apiKey: z.string().nullable(),
  expiresIn: z.string(),
};

export const SignupResponseSchema = z.strictObject({
  success: z.literal(true),
  redirectTo: z.string(),
  credentials: z.strictObject({
    ...CredentialsFields,
    plan: PlanIdSchema,
    planLabel: z.string(),
    capabilities: z.array(z.string()),
  }),
});

export const SigninResponseSchema = z.strictObject({
  success: z.literal(true),
  credentials: z.strictObject({ ...CredentialsFields, agentName: z.string() }),
});

export const SessionResponseSchema = z.union([
  z.strictObject({ authenticated: z.literal(false), session: z.null() }),
  z.strictObject({
    authenticated: z.literal(true),
    session: z.strictObject({
      agentName: z.string().nullable(),
      /** ISO time at which the credential used (cookie or token) expires. */
      expiresAt: z.string().nullable(),
      /** How the caller is authenticated. */
      via: z.enum(['session', 'bearer']),
      subjectType: z.enum(['account', 'agent']),
      accountType: z.enum(['retail', 'enterprise']).optional(),
      plan: PlanIdSchema.optional(),
      planLabel: z.string().optional(),
      capabilities: z.array(z.string()).optional(),
    }),
  }),
]);

export const SessionTokenResponseSchema = z.strictObject({
  success: z.literal(true),
  credentials: z.strictObject(CredentialsFields),
});

export const FromKeyResponseSchema = z.strictObject({
  loginUrl: z.string(),
  expiresIn: z.number().int(),
});

export const PlanTransitionResponseSchema = z.strictObject({
  transitioned: z.boolean(),
  noChange: z.boolean(),
  transition: z.strictObject({
    oldPlan: PlanIdSchema,
    newPlan: PlanIdSchema,
    newCapabilities: z.array(z.string()),
  }),
  billing: z.strictObject({ mode: z.literal('free_beta'), charged: z.literal(false) }),
});

export const SuccessResponseSchema = z.strictObject({ success: z.literal(true) });
