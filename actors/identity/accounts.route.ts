import type { TokenService } from './token-service';
import type { CachePort } from '../../src/store/cache';
import type { Request, Response } from 'express';
import { identityLimits, type IdentityOptions, type LimitSpec } from './identity-options';
import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  ConfirmResetBodySchema,
  ForgotPasswordBodySchema,
  PlanTransitionBodySchema,
  PlanTransitionResponseSchema,
  SigninBodySchema,
  SigninResponseSchema,
  SignupBodySchema,
  SignupResponseSchema,
  SuccessResponseSchema,
} from '../../schemas/http/identity';
import {
  ACCOUNTS_DIRECTORY,
  ConfirmResetReplySchema,
  SigninReplySchema,
  SignupReplySchema,
  accountAddress,
} from '../../schemas/messages/identity';
import type { RouteModule } from '../../src/http/app.types';
import { bodyField, ipKey, rateLimit, requirePrincipal } from '../../src/http/auth';
import { requireSameOrigin, startSession } from '../../src/http/auth/session-helpers';
import { parseBody } from '../../src/http/validation';

/** What the identity routes read from the process's services. */
export interface IdentityRouteServices {
  readonly identity: IdentityOptions;
  readonly cache: CachePort;
  readonly tokens: TokenService;
}

/** Where the browser goes after signing up. */
export const SIGNUP_REDIRECT = '/';

/**
 * The caller must be an account acting with full rights: a browser session, an account token, or
 * a named token without scopes. Agents and scoped named tokens manage no account (403).
 */
export function accountCaller(res: Response): Principal & { accountId: string } {
  const principal = requirePrincipal(res);
  if (principal.subjectType !== 'account' || !principal.accountId) {
    throw errors.forbidden('An account session or account token is required');
  }
  if (principal.tokenId && principal.scopes && principal.scopes.length > 0) {
    throw errors.forbidden('A scoped token cannot manage the account: use the session or an account token');
  }
  return principal as Principal & { accountId: string };
}

/**
 * Accounts: signup, signin, password reset and plan transitions. Validates, rate-limits (per IP
 * and per email), asks `accounts:directory` or the caller's `account:<id>`, and starts the browser
 * session where the spec says so. Needs the process's services (absent: nothing is registered).
 */
export const accountsRoute: RouteModule<IdentityRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const limits = identityLimits(services.identity);
  const sameOrigin = requireSameOrigin(deps.config.PUBLIC_BASE_URL);
  const limit = (name: string, spec: LimitSpec, key: (req: Request) => string | undefined) =>
    rateLimit({ cache: services.cache, name, ...spec, key });
  const email = (req: Request) => bodyField(req, 'email');
  const ipAndEmail = (req: Request) => {
    const e = email(req);
    return e === undefined ? undefined : `${ipKey(req)}|${e}`;
  };

  router.post(
    '/api/signup',
    sameOrigin,
    limit('signup-ip', limits.signupPerIp, ipKey),
    limit('signup-email', limits.signupPerEmail, email),
    async (req, res) => {
      const body = parseBody(SignupBodySchema, req);
      const reply = SignupReplySchema.parse(
        await deps.system.ask(ACCOUNTS_DIRECTORY, 'accounts.signup', body),
      );
      await startSession(req, reply.accountId);
      res.status(201).json(
        SignupResponseSchema.parse({
          success: true,
          redirectTo: SIGNUP_REDIRECT,
          credentials: reply.credentials,
        }),
      );
    },
  );

  router.post(
    '/api/signin',
    sameOrigin,
    limit('signin-ip', limits.signinPerIp, ipKey),
    limit('signin-ip-email', limits.signinPerIpEmail, ipAndEmail),
    limit('signin-email', limits.signinPerEmail, email),
    async (req, res) => {
      const body = parseBody(SigninBodySchema, req);
      const reply = SigninReplySchema.parse(
        await deps.system.ask(ACCOUNTS_DIRECTORY, 'accounts.signin', body),
      );
      await startSession(req, reply.accountId);
      res.json(SigninResponseSchema.parse({ success: true, credentials: reply.credentials }));
    },
  );

  router.post(
    '/api/forgot-password',
    limit('forgot-ip', limits.forgotPerIp, ipKey),
    limit('forgot-email', limits.forgotPerEmail, email),
    async (req, res) => {
      const { email: address } = parseBody(ForgotPasswordBodySchema, req);
      // Fire and forget: the answer is the same, and as fast, whether the account exists or not.
      await deps.system.tell(ACCOUNTS_DIRECTORY, 'accounts.forgotPassword', { email: address });
      res.json(SuccessResponseSchema.parse({ success: true }));
    },
  );

  router.post(
    '/api/forgot-password/confirm',
    limit('confirm-ip', limits.confirmPerIp, ipKey),
    limit('confirm-email', limits.confirmPerEmail, email),
    async (req, res) => {
      const body = parseBody(ConfirmResetBodySchema, req);
      const { accountId } = ConfirmResetReplySchema.parse(
        await deps.system.ask(ACCOUNTS_DIRECTORY, 'accounts.confirmReset', body),
      );
      // The old password's sessions end everywhere (its account tokens were cut off by the actor).
      await deps.sessions?.store.destroyAccountSessions(accountId);
      res.json(SuccessResponseSchema.parse({ success: true }));
    },
  );

  router.post('/api/plans/transition', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const body = parseBody(PlanTransitionBodySchema, req);
    const reply = await deps.system.ask(accountAddress(caller.accountId), 'account.transitionPlan', body, {
      auth: caller,
    });
    res.json(PlanTransitionResponseSchema.parse(reply));
  });
};
