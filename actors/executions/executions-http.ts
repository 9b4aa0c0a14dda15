import type { Response } from 'express';
import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import type { ResolvedAppDeps } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import type { ExecutionsService } from './executions';

/** What the executions, recovery and panic routes read from the process's services. */
export interface ExecutionsRouteServices {
  readonly executions: ExecutionsService;
}

/**
 * The caller of the executions, recovery and panic routes: an operator account or one of its
 * agents (the tenant is the account). A self-registered agent has no account: 403.
 */
export function accountCaller(res: Response): Principal & { accountId: string } {
  return requireAccount(
    res,
    'Executions and notifications belong to an operator account: use an account session or token',
  );
}

/** The process's executions service (reads for the routes). */
export function executionsOf(deps: ResolvedAppDeps<ExecutionsRouteServices>): ExecutionsService {
  if (!deps.services) throw errors.unavailable('Executions are not available on this node');
  return deps.services.executions;
}

/** Rollbacks undo effects one by one: they get more time than a plain request. */
export const ACTION_TIMEOUT_MS = 60_000;
