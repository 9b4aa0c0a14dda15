import express, { type Request, type Response } from 'express';
import type { OAuthClientDocument } from '../../schemas/documents/oauth';
import { OAuthAuthorizeParamsSchema, type OAuthAuthorizeParams } from '../../schemas/http/oauth';
import { SigninBodySchema } from '../../schemas/http/identity';
import { ACCOUNTS_DIRECTORY, SigninReplySchema } from '../../schemas/messages/identity';
import type { Services } from '../../src/boot/services';
import type { RouteModule } from '../../src/http/app.types';
import { ipKey, principalOf, rateLimit } from '../../src/http/auth';
import { requireSameOrigin, startSession } from '../../src/http/auth/session-helpers';
import { OAuthGrants, OAUTH_SCOPE } from './oauth-grants';
import { consentPage, errorPage, signInPage } from './oauth-pages';
import { newId, oauthClientsCollection, oauthConsentsCollection } from './oauth.collection';

/** What the OAuth routes read from the process's services. */
export type OAuthRouteServices = Pick<Services, 'documents' | 'cache' | 'tokens'>;

const CONSENT_TTL_MS = 10 * 60_000;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The MCP resource the tokens are for (RFC 8707 `resource`): this service's `/mcp`. */
export const mcpResourceOf = (base: string) => `${base}/mcp`;

/**
 * `GET`/`POST /oauth/authorize` (docs/oauth.md): the authorization code flow with PKCE (S256
 * only). The client and its redirect URI are checked first (exact match; a failure there is a
 * page, never a redirect); then a browser without a session signs in on a minimal page, and the
 * signed-in account approves or denies on a consent page. The consent is a stored request bound
 * to that browser session, good once; an approval redirects with a single-use code.
 */
export const oauthAuthorizeRoute: RouteModule<OAuthRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const issuer = deps.config.PUBLIC_BASE_URL;
  const clients = services.documents.repository(oauthClientsCollection);
  const consents = services.documents.repository(oauthConsentsCollection);
  const grants = new OAuthGrants(services.documents, deps.system);
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const signinLimit = rateLimit({
    cache: services.cache,
    name: 'oauth-signin-ip',
    points: 20,
    durationSec: 600,
    key: ipKey,
  });

  const back = (res: Response, redirectUri: string, params: Record<string, string | undefined>) => {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries({ ...params, iss: issuer }))
      if (v !== undefined) url.searchParams.set(k, v);
    res.redirect(302, url.toString());
  };

  /** The client, or undefined once an error page was sent (nothing may go to an unchecked URI). */
  const clientOf = async (
    res: Response,
    p: OAuthAuthorizeParams,
  ): Promise<OAuthClientDocument | undefined> => {
    const client = p.client_id ? await clients.findById(p.client_id) : null;
    if (!client) return void errorPage(res, 400, 'Unknown client_id: register the client first');
    if (!p.redirect_uri || !client.redirectUris.includes(p.redirect_uri)) {
      return void errorPage(res, 400, 'The redirect_uri is not one the client registered');
    }
    return client;
  };

  /** The request's own errors, sent back to the (now checked) redirect URI; true when sent. */
  const refused = (res: Response, p: OAuthAuthorizeParams): boolean => {
    const fail = (error: string, description: string) => {
      back(res, p.redirect_uri!, { error, error_description: description, state: p.state });
      return true;
    };
    if (p.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (p.code_challenge_method !== 'S256' || !p.code_challenge || !CHALLENGE.test(p.code_challenge)) {
      return fail(
        'invalid_request',
        'PKCE is required: code_challenge (S256, 43 characters) and code_challenge_method=S256',
      );
    }
    if (p.resource !== undefined && p.resource !== mcpResourceOf(issuer)) {
      return fail('invalid_target', `resource must be ${mcpResourceOf(issuer)}`);
    }
    const scopes = (p.scope ?? '').split(' ').filter(Boolean);
    if (scopes.some((s) => s !== OAUTH_SCOPE))
      return fail('invalid_scope', `The only scope is ${OAUTH_SCOPE}`);
    return false;
  };

  const askConsent = async (
    req: Request,
    res: Response,
    client: OAuthClientDocument,
    p: OAuthAuthorizeParams,
    accountId: string,
  ) => {
    const id = newId('ocs');
    await consents.insert({
      _id: id,
      sessionId: req.sessionID,
      accountId,
      clientId: client._id,
      redirectUri: p.redirect_uri!,
      codeChallenge: p.code_challenge!,
      ...(p.state !== undefined ? { state: p.state } : {}),
      expiresAt: new Date(Date.now() + CONSENT_TTL_MS),
    });
    consentPage(res, client.clientName, p.redirect_uri!, id);
  };

  const sessionAccount = (res: Response) => {
    const principal = principalOf(res);
    return principal?.via === 'session' && principal.subjectType === 'account'
      ? principal.accountId
      : undefined;
  };

  router.get('/oauth/authorize', deps.optionalAuth, async (req, res) => {
    const parsed = OAuthAuthorizeParamsSchema.safeParse(req.query);
    if (!parsed.success) return void errorPage(res, 400, 'Malformed authorization request');
    const p = parsed.data;
    const client = await clientOf(res, p);
    if (!client || refused(res, p)) return;
    const accountId = sessionAccount(res);
    if (accountId && req.session) await askConsent(req, res, client, p, accountId);
    else signInPage(res, client.clientName, p);
  });

  router.post(
    '/oauth/authorize',
    form,
    requireSameOrigin(issuer),
    deps.optionalAuth,
    signinLimit,
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (body.op === 'signin') {
        const parsed = OAuthAuthorizeParamsSchema.safeParse(body);
        if (!parsed.success) return void errorPage(res, 400, 'Malformed authorization request');
        const p = parsed.data;
        const client = await clientOf(res, p);
        if (!client || refused(res, p)) return;
        const credentials = SigninBodySchema.safeParse(body);
        if (!credentials.success)
          return void signInPage(res, client.clientName, p, 'Enter your email and password');
        let accountId: string;
        try {
          const reply = await deps.system.ask(ACCOUNTS_DIRECTORY, 'accounts.signin', credentials.data);
          accountId = SigninReplySchema.parse(reply).accountId;
        } catch {
          return void signInPage(res, client.clientName, p, 'Wrong email or password');
        }
        await startSession(req, accountId);
        return void (await askConsent(req, res, client, p, accountId));
      }
      if (body.op !== 'approve' && body.op !== 'deny') return void errorPage(res, 400, 'Unknown action');
      const id = typeof body.consent === 'string' ? body.consent : '';
      const consent = id ? await consents.findById(id) : null;
      const accountId = sessionAccount(res);
      // Only the session it was asked in, signed in as the same account, and only once.
      if (
        !consent ||
        consent.sessionId !== req.sessionID ||
        consent.accountId !== accountId ||
        consent.expiresAt.getTime() < Date.now() ||
        !(await consents.deleteOne({ _id: id }))
      ) {
        return void errorPage(res, 400, 'This authorization request is unknown, expired or already answered');
      }
      if (body.op === 'deny') {
        return back(res, consent.redirectUri, {
          error: 'access_denied',
          error_description: 'The user denied access',
          state: consent.state,
        });
      }
      const code = await grants.issueCode(consent);
      back(res, consent.redirectUri, { code, state: consent.state });
    },
  );
};
