import type { Response } from 'express';
import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import { requirePrincipal } from './require-auth.middleware';

/**
 * The caller of a route that belongs to an operator account: an account, or one of its agents
 * (the tenant is the account). A self-registered agent has no account: 403 with `message`.
 */
export function requireAccount(res: Response, message: string): Principal & { accountId: string } {
  const principal = requirePrincipal(res);
  if (!principal.accountId) throw errors.forbidden(message);
  return principal as Principal & { accountId: string };
}
