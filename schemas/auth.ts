import { z } from 'zod';

/** Scopes of named bearer tokens (spec). A token without scopes may call everything its owner may. */
export const TOKEN_SCOPES = [
  'workspace',
  'project',
  'app',
  'workflow',
  'mcp_connector',
  'external_agent',
  'api',
] as const;
export const TokenScopeSchema = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof TokenScopeSchema>;

/**
 * Who is calling, as the front door established it. Put in `res.locals.auth` by `requireAuth` and
 * copied into envelopes as `auth`. Internal ids live here and in documents only: never in a
 * response body.
 */
export const PrincipalSchema = z.object({
  /** What the credential stands for. */
  subjectType: z.enum(['account', 'agent']),
  /** The operator account (absent for a self-registered agent without an owner account). */
  accountId: z.string().optional(),
  /** Internal agent id when the caller is an agent. */
  agentId: z.string().optional(),
  /** How the caller authenticated. */
  via: z.enum(['session', 'bearer']),
  /** Id of the named token used, when it was one. */
  tokenId: z.string().optional(),
  /** Scopes of a named token; absent = unrestricted. */
  scopes: z.array(TokenScopeSchema).optional(),
});
export type Principal = z.infer<typeof PrincipalSchema>;

/**
 * Claims of the service's JWTs (HS256), as `TokenService.verify` gives them. On the wire a token
 * shows only `{jti, iat, exp, enc}`: every other claim is sealed in `enc` (AES-256-GCM,
 * actors/identity/sealed-claims.ts), so `sub` and `acc`, internal ids, are never readable in a
 * token nor echoed in bodies.
 */
export const TokenClaimsSchema = z.object({
  sub: z.string().min(1),
  /** account = signup/signin/session token; agent = /register or deployed agent key; named = /api/bearer-tokens. */
  typ: z.enum(['account', 'agent', 'named']),
  jti: z.string().min(1),
  /** Named token id (typ named). */
  tid: z.string().optional(),
  /** Owner account of an agent or named token. */
  acc: z.string().optional(),
  scopes: z.array(TokenScopeSchema).optional(),
  iat: z.number().int(),
  /**
   * Issue time in epoch ms, unique and increasing within a process (`TokenService.issue`): what
   * an account cutoff compares with. Tokens issued before it existed count as issued at the first
   * millisecond of their `iat` second.
   */
  iatMs: z.number().int().optional(),
  exp: z.number().int(),
});
/** Verified claims: `iatMs` always set. */
export type TokenClaims = z.infer<typeof TokenClaimsSchema> & { iatMs: number };
