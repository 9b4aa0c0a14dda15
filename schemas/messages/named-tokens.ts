import { z } from 'zod';
import {
  BearerTokenViewSchema,
  CreateBearerTokenBodySchema,
  DeleteBearerTokenInputSchema,
  PatchBearerTokenBodySchema,
} from '../http/bearer-tokens';

/**
 * Messages of the `named-tokens:<accountId>` actor: one account's named scoped bearer tokens.
 * The caller's principal travels as the envelope's `auth`.
 */
export const TokensCreateMessageSchema = CreateBearerTokenBodySchema;
export const TokensListMessageSchema = z.object({});
export const TokensUpdateMessageSchema = PatchBearerTokenBodySchema;
export const TokensRevokeMessageSchema = DeleteBearerTokenInputSchema;
/** `named-tokens.touch` (a `tell`): the token was used at `at` (epoch ms); sets `lastUsedAt` if later. */
export const TokensTouchMessageSchema = z.object({ id: z.string().min(1), at: z.number().int().positive() });

export const TokensViewReplySchema = z.object({
  token: BearerTokenViewSchema,
  bearerToken: z.string().optional(),
});
