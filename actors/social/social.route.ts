import type { Request, Response } from 'express';
import type { Principal } from '../../schemas/auth';
import { ConnectXBodySchema, SocialIdParamsSchema, XCallbackQuerySchema } from '../../schemas/http/social';
import type { RouteModule, ResolvedAppDeps } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { parseBody, parseParams, parseQuery } from '../../src/http/validation';
import { bindingOf } from './social-accounts';
import type { SocialService } from './social.service';
import { asAppError } from './x-api';

/** What the social routes read: the connector, absent when SOCIAL_ENABLED=false. */
export interface SocialRouteServices {
  readonly social?: SocialService;
}

export const WHO = 'The social connector is used by an account';

/** The connector, or undefined: then no social route is registered at all (404). */
export const socialOf = (deps: ResolvedAppDeps<SocialRouteServices>) => deps.services?.social;

/**
 * What ties an authorization to the caller's session: the browser session's id, or the bearer
 * token itself (hashed: neither is stored). The callback must come with the same one.
 */
function sessionBinding(req: Request, principal: Principal): string {
  if (principal.via === 'session') return bindingOf(`session:${req.sessionID}`);
  const token = (req.headers.authorization ?? '').replace(/^Bearer +/i, '').trim();
  return bindingOf(`bearer:${token}`);
}

async function upstream<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw asAppError(err);
  }
}

/**
 * Platforms and X accounts (docs/social.md, "Connecting"): `GET /api/social/platforms`,
 * `POST /api/x/connect`, `GET /api/x/callback` (where X sends the browser back),
 * `GET /api/x/accounts`, `DELETE /api/x/accounts/:id` (disconnect).
 */
export const socialRoute: RouteModule<SocialRouteServices> = (router, deps) => {
  const social = socialOf(deps);
  if (!social) return;

  router.get('/api/social/platforms', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.json({ platforms: await social.platforms(caller.accountId) });
  });

  router.post('/api/x/connect', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { redirectTo } = parseBody(ConnectXBodySchema, req);
    res.json(await social.accounts.connect(caller.accountId, sessionBinding(req, caller), redirectTo));
  });

  router.get('/api/x/callback', deps.requireAuth, async (req: Request, res: Response) => {
    const caller = requireAccount(res, WHO);
    const query = parseQuery(XCallbackQuerySchema, req);
    const { redirectTo } = await upstream(
      social.accounts.complete(caller.accountId, sessionBinding(req, caller), query),
    );
    res.redirect(302, redirectTo);
  });

  router.get('/api/x/accounts', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.json({ accounts: await social.accounts.list(caller.accountId) });
  });

  router.delete('/api/x/accounts/:id', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { id } = parseParams(SocialIdParamsSchema, req);
    const { revoked } = await social.accounts.disconnect(caller.accountId, id);
    res.json({ success: true, id, revoked });
  });
};
