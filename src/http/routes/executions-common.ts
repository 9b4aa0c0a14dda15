import type { Response } from 'express';
import { executionsServiceOf, type ExecutionsService } from '../../../actors/executions/executions';
import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import type { ResolvedAppDeps } from '../app.types';
import { requirePrincipal } from '../auth';

/**
 * The caller of the executions, recovery, panic and notifications routes: an operator account or
 * one of its agents (the tenant is the account). A self-registered agent has no account: 403.
 */
export function accountCaller(res: Response): Principal & { accountId: string } {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden(
      'Executions and notifications belong to an operator account: use an account session or token',
    );
  }
  return principal as Principal & { accountId: string };
}

/** The process's executions service (reads for the routes). */
export function executionsOf(deps: ResolvedAppDeps): ExecutionsService {
  if (!deps.services) throw errors.unavailable('Executions are not available on this node');
  return executionsServiceOf(deps.services);
}

/** Rollbacks undo effects one by one: they get more time than a plain request. */
export const ACTION_TIMEOUT_MS = 60_000;
