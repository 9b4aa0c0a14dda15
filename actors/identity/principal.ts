import { PrincipalSchema, type Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';

/**
 * The caller of a message, from the envelope's `auth` (the front door copies `res.locals.auth`
 * there). Missing or malformed: UNAUTHORIZED, so an actor never acts for nobody.
 */
export function principalOf(auth: unknown): Principal {
  const parsed = PrincipalSchema.safeParse(auth);
  if (!parsed.success) throw errors.unauthorized();
  return parsed.data;
}

/**
 * The caller, who must act for the operator account `accountId` (the actor's id). Another
 * account is PERMISSION_DENIED: the front door addresses an account's actor from the caller's own
 * principal, so this only fires on a bug or a forged message, and tenant isolation holds anyway.
 */
export function operatorOf(auth: unknown, accountId: string): Principal {
  const principal = principalOf(auth);
  if (principal.accountId !== accountId) throw errors.forbidden('Not allowed for this account');
  return principal;
}
