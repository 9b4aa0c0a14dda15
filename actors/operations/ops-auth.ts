import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import type { Secrets } from '../../src/config/secrets';
import type { DocumentStore } from '../../src/store/mongo';
import { accountsCollection } from '../identity/accounts.collection';
import { isOpsAdmin } from '../ops/health-view';

/**
 * Who is an ops admin (docs/operations.md): a caller presenting `ADMIN_TOKEN` as its bearer token,
 * or an account (its session, or one of its own bearer tokens, not its agents') whose email is in
 * `ADMIN_EMAILS`. The cron route takes `CRON_SECRET` or `ADMIN_TOKEN` as bearer. Secrets are
 * compared in constant time (`isOpsAdmin` of actors/ops/health-view.ts, shared with /health).
 */
export interface OpsAuthServices {
  readonly secrets: Pick<Secrets, 'adminToken' | 'cronSecret'>;
  readonly config: { readonly ADMIN_EMAILS: readonly string[] };
  readonly documents: Pick<DocumentStore, 'repository'>;
}

interface OpsAuthHooks {
  readonly requireAuth: RequestHandler;
  readonly optionalAuth: RequestHandler;
}

/** Runs an express middleware to its `next`: resolves the error it passed (or undefined). */
function runMiddleware(mw: RequestHandler, req: Request, res: Response): Promise<unknown> {
  return new Promise((resolve) => {
    const next: NextFunction = (err?: unknown) => resolve(err);
    Promise.resolve(mw(req, res, next)).catch(resolve);
  });
}

export function createOpsAuth(services: OpsAuthServices, hooks: OpsAuthHooks) {
  const admins = new Set(services.config.ADMIN_EMAILS);
  const accounts = () => services.documents.repository(accountsCollection);

  /** An account listed in ADMIN_EMAILS: its own session or token, not one of its agents. */
  async function listedAccount(principal: Principal | undefined): Promise<string | undefined> {
    if (!principal || principal.subjectType !== 'account' || !principal.accountId || admins.size === 0) {
      return undefined;
    }
    const account = await accounts().findById(principal.accountId);
    const email = account?.email.toLowerCase();
    return email && admins.has(email) ? email : undefined;
  }

  const adminBearer = (req: Request) => isOpsAdmin(req.headers.authorization, services.secrets.adminToken);

  return {
    /**
     * For the public routes with details for admins: whether this caller is one. Never fails:
     * missing or wrong credentials simply get the public view (as `/health` does).
     */
    async isAdmin(req: Request, res: Response): Promise<boolean> {
      if (adminBearer(req)) return true;
      if (admins.size === 0 || (!req.headers.authorization && !req.headers.cookie)) return false;
      const err = await runMiddleware(hooks.optionalAuth, req, res);
      if (err) return false;
      return !!(await listedAccount(res.locals.auth as Principal | undefined));
    },

    /**
     * Ops-admin routes: 401 without valid credentials, 403 for a caller who is not an ops admin.
     * `res.locals.opsAdmin` names the admin for the records (`ADMIN_TOKEN` or the account's email).
     */
    requireAdmin: (async (req, res, next) => {
      if (adminBearer(req)) {
        res.locals.opsAdmin = 'ADMIN_TOKEN';
        return next();
      }
      const err = await runMiddleware(hooks.requireAuth, req, res);
      if (err) return next(err);
      const email = await listedAccount(res.locals.auth as Principal | undefined);
      if (email) {
        res.locals.opsAdmin = email;
        return next();
      }
      next(errors.forbidden('This route is for ops admins (ADMIN_TOKEN or an account in ADMIN_EMAILS)'));
    }) as RequestHandler,

    /** The cron route: `CRON_SECRET` or `ADMIN_TOKEN` as bearer; anything else 401. */
    requireCron: ((req, _res, next) => {
      const h = req.headers.authorization;
      if (isOpsAdmin(h, services.secrets.cronSecret) || isOpsAdmin(h, services.secrets.adminToken))
        return next();
      next(errors.unauthorized('The cron route needs CRON_SECRET or ADMIN_TOKEN as bearer token'));
    }) as RequestHandler,
  };
}
export type OpsAuth = ReturnType<typeof createOpsAuth>;
