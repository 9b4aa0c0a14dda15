import { z } from 'zod';
import { displayNameSchema } from '../display-text';
import { TOKEN_SCOPES, TokenScopeSchema } from '../auth';

/** Name of a named token: trimmed, 1 to 100 characters, no control character (display-text.ts). */
export const TokenNameSchema = displayNameSchema(100);

/** A workspace or project id given as a token's scope. */
export const ScopeTargetIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an id (letters, digits, _ . : -)');

/** Scopes of a named token; duplicates removed, sorted. Empty (or absent) = unrestricted. */
export const TokenScopesSchema = z
  .array(TokenScopeSchema, { error: `must be an array of: ${TOKEN_SCOPES.join(', ')}` })
  .max(TOKEN_SCOPES.length * 2)
  .transform((scopes) => TOKEN_SCOPES.filter((s) => scopes.includes(s)));

/** Id of a named token. */
export const TokenIdSchema = z.string().trim().min(1, 'must not be empty').max(100);

/** `POST /api/bearer-tokens`. */
export const CreateBearerTokenBodySchema = z.object({
  name: TokenNameSchema,
  workspaceId: ScopeTargetIdSchema.optional(),
  projectId: ScopeTargetIdSchema.optional(),
  scopes: TokenScopesSchema.optional(),
});
export type CreateBearerTokenBody = z.output<typeof CreateBearerTokenBodySchema>;

/**
 * `PATCH /api/bearer-tokens`: `action` rotate or revoke, or a rename (`name`) and/or a rescope
 * (`scopes`, replacing the list; `[]` = unrestricted). Rotate may be combined with a rename or a
 * rescope; revoke stands alone.
 */
export const PatchBearerTokenBodySchema = z
  .object({
    id: TokenIdSchema,
    action: z.enum(['rotate', 'revoke']).optional(),
    name: TokenNameSchema.optional(),
    scopes: TokenScopesSchema.optional(),
  })
  .check((ctx) => {
    const { action, name, scopes } = ctx.value;
    if (action === undefined && name === undefined && scopes === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: 'nothing to change: give action (rotate or revoke), name or scopes',
      });
    }
    if (action === 'revoke' && (name !== undefined || scopes !== undefined)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['action'],
        message: 'revoke cannot be combined with name or scopes',
      });
    }
  });
export type PatchBearerTokenBody = z.output<typeof PatchBearerTokenBodySchema>;

/** `DELETE /api/bearer-tokens` (JSON body `{id}` or `?id=`). */
export const DeleteBearerTokenInputSchema = z.object({ id: TokenIdSchema });

/** A named token as shown after creation: the value itself is never shown again. */
export const BearerTokenViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  workspaceId: z.string().nullable(),
  projectId: z.string().nullable(),
  scopes: z.array(TokenScopeSchema),
  maskedToken: z.string(),
  status: z.enum(['live', 'revoked']),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().optional(),
});
export type BearerTokenView = z.infer<typeof BearerTokenViewSchema>;

/** `POST` (201) and `PATCH` with `action: 'rotate'`: the value, revealed once. */
export const RevealedBearerTokenResponseSchema = z.object({
  token: BearerTokenViewSchema,
  bearerToken: z.string(),
  oneTimeReveal: z.literal(true),
});

/** `PATCH` without rotation. */
export const UpdatedBearerTokenResponseSchema = z.object({
  token: BearerTokenViewSchema,
  oneTimeReveal: z.literal(false),
});

/** `GET /api/bearer-tokens`. */
export const ListBearerTokensResponseSchema = z.object({ tokens: z.array(BearerTokenViewSchema) });

/** `DELETE /api/bearer-tokens`. */
export const RevokedBearerTokenResponseSchema = z.object({
  revoked: z.literal(true),
  token: BearerTokenViewSchema,
});
