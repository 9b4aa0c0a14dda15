import type { IdentityRouteServices } from './accounts.route';
import { identityLimits, type LimitSpec } from './identity-options';
import { TokenService } from './token-service';
import { isAppError, errors } from '../../schemas/errors';
import {
  FromKeyBodySchema,
  FromKeyCallbackQuerySchema,
  FromKeyResponseSchema,
  SessionResponseSchema,
  SessionTokenResponseSchema,
  SuccessResponseSchema,
} from '../../schemas/http/identity';
import {
  ACCOUNTS_DIRECTORY,
  CreateLoginLinkReplySchema,
  ProfileReplySchema,
  RedeemLoginLinkReplySchema,
  accountAddress,
  type ProfileReply,
} from '../../schemas/messages/identity';
import type { Request } from 'express';
import type { RouteModule } from '../../src/http/app.types';
import { SESSION_COOKIE, ipKey, principalFromClaims, principalOf, rateLimit } from '../../src/http/auth';
import { endSession, startSession } from '../../src/http/auth/session-helpers';
import { parseBody, parseQuery } from '../../src/http/validation';
import { secretAnswer } from '../../src/http/idempotency.middleware';
import { accountCaller } from './accounts.route';

/** Where a login link lands when it carries no `redirectTo`. */
export const LOGIN_LINK_REDIRECT = '/';

/**
 * The browser session: `GET`/`DELETE /api/session`, `POST /api/session/token` (a bearer token for
 * the signed-in account), and the one-time login link (`POST /api/session/from-key`, then
 * `GET /api/session/from-key/callback?st=`). Needs the process's services.
 */
export const sessionRoute: RouteModule<IdentityRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const limits = identityLimits(services.identity);
  const cookieName = deps.sessions?.cookieName ?? SESSION_COOKIE;
  const limit = (name: string, spec: LimitSpec, key: (req: Request) => string | undefined) =>
    rateLimit({ cache: services.cache, name, ...spec, key });

  // Anonymous callers get 200 {authenticated: false}: a page asks this to decide what to show.
  router.get('/api/session', deps.optionalAuth, async (req, res) => {
    const principal = principalOf(res);
    const anonymous = { authenticated: false as const, session: null };
    if (!principal) return void res.json(anonymous);
    const expiresAt = res.locals.authExpiresAt ? new Date(res.locals.authExpiresAt).toISOString() : null;
    let profile: ProfileReply | undefined;
    if (principal.subjectType === 'account' && principal.accountId) {
      try {
        profile = ProfileReplySchema.parse(
          await deps.system.ask(
            accountAddress(principal.accountId),
            'account.profile',
            {},
            { auth: principal },
          ),
        );
      } catch (err) {
        // A session or token whose account is gone is no session at all.
        if (!isAppError(err) || err.code !== 'NOT_FOUND') throw err;
        if (principal.via === 'session') await endSession(req, res, cookieName);
        return void res.json(anonymous);
      }
    }
    res.json(
      SessionResponseSchema.parse({
        authenticated: true,
        session: {
          agentName: profile?.agentName ?? null,
          expiresAt,
          via: principal.via,
          subjectType: principal.subjectType,
          ...(profile
            ? {
                accountType: profile.accountType,
                plan: profile.plan,
                planLabel: profile.planLabel,
                capabilities: profile.capabilities,
              }
            : {}),
        },
      }),
    );
  });

  // Signing out when already signed out is a success too (the cookie is cleared either way).
  router.delete('/api/session', deps.optionalAuth, async (req, res) => {
    await endSession(req, res, cookieName);
    res.json(SuccessResponseSchema.parse({ success: true }));
  });

  router.post(
    '/api/session/token',
    secretAnswer,
    deps.requireAuth,
    limit(
      'session-token',
      limits.sessionTokenPerAccount,
      (req) => req.res && principalOf(req.res)?.accountId,
    ),
    async (_req, res) => {
      const caller = accountCaller(res);
      if (caller.tokenId) throw errors.forbidden('A named token cannot mint account tokens');
      const credentials = await deps.system.ask(
        accountAddress(caller.accountId),
        'account.issueToken',
        {},
        {
          auth: caller,
        },
      );
      res.json(SessionTokenResponseSchema.parse({ success: true, credentials }));
    },
  );

  router.post('/api/session/from-key', limit('from-key-ip', limits.fromKeyPerIp, ipKey), async (req, res) => {
    const { apiKey, redirectTo } = parseBody(FromKeyBodySchema, req);
    let accountId: string;
    try {
      const principal = principalFromClaims(await services.tokens.verify(apiKey));
      if (principal.subjectType !== 'account' || principal.tokenId || !principal.accountId) {
        throw errors.forbidden('Only an account bearer token can open a browser session');
      }
      accountId = principal.accountId;
    } catch (err) {
      if (TokenService.isRefusal(err)) throw errors.unauthorized('Invalid API key');
      throw err;
    }
    const link = CreateLoginLinkReplySchema.parse(
      await deps.system.ask(ACCOUNTS_DIRECTORY, 'accounts.createLoginLink', { accountId, redirectTo }),
    );
    const loginUrl = `${deps.config.PUBLIC_BASE_URL}/api/session/from-key/callback?st=${encodeURIComponent(link.st)}`;
    res.json(FromKeyResponseSchema.parse({ loginUrl, expiresIn: link.expiresIn }));
  });

  // A browser navigation: success is a redirect with the new cookie; a dead link is 401 JSON.
  router.get('/api/session/from-key/callback', async (req, res) => {
    const { st } = parseQuery(FromKeyCallbackQuerySchema, req);
    const { accountId, redirectTo } = RedeemLoginLinkReplySchema.parse(
      await deps.system.ask(ACCOUNTS_DIRECTORY, 'accounts.redeemLoginLink', { st }),
    );
    await startSession(req, accountId);
    res.redirect(302, redirectTo ?? LOGIN_LINK_REDIRECT);
  });
};
