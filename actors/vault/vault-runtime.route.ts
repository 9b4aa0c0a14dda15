import type { Request, RequestHandler, Response } from 'express';
import { looksLikeRuntimeCredential } from './sdk-credentials';
import { errors } from '../../schemas/errors';
import {
  CleanupResponseSchema,
  ConsumeBodySchema,
  ConsumeResponseSchema,
  CreateCredentialBodySchema,
  CredentialListResponseSchema,
  CredentialRevealResponseSchema,
  CredentialRevokeResponseSchema,
  DeleteCredentialInputSchema,
} from '../../schemas/http/vault';
import {
  CredentialsCreateReplySchema,
  GrantConsumeReplySchema,
  type RuntimeAuth,
} from '../../schemas/messages/vault';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import { parseBody, validationError } from '../../src/http/validation';
import { secretAnswer } from '../../src/http/idempotency.middleware';
import { vaultRateLimit, vaultServiceOf, type VaultRouteServices } from './vault.route';

/** Grant ids as minted (`vgr_` + 128 bits hex); anything else cannot name a grant. */
const GRANT_ID = /^vgr_[0-9a-f]{32}$/;

export const RUNTIME_CREDENTIAL_REQUIRED =
  'This route takes a runtime credential only: Authorization: Bearer sdk_… (minted at POST /api/sdk/credentials)';

/**
 * The caller of the consume route: a runtime credential, and nothing else. No header (a browser
 * session alone included), another scheme, or a user bearer token (account, agent or named JWT)
 * is 401: those are not credentials of this route, whatever they are worth elsewhere.
 */
async function runtimeCallerOf(
  req: Request,
  deps: ResolvedAppDeps<VaultRouteServices>,
): Promise<RuntimeAuth> {
  const header = req.headers.authorization;
  if (header === undefined) throw errors.unauthorized(RUNTIME_CREDENTIAL_REQUIRED);
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) throw errors.unauthorized('Malformed Authorization header: expected "Bearer sdk_…"');
  if (!looksLikeRuntimeCredential(match[1])) {
    throw errors.unauthorized(`User tokens are not accepted here. ${RUNTIME_CREDENTIAL_REQUIRED}`);
  }
  return vaultServiceOf(deps).credentials.verify(match[1]);
}

/** The caller's account for `/api/sdk/credentials`; a self-registered agent has none (403). */
function credentialsOf(res: Response) {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden(
      'Runtime credentials belong to an operator account: use an account session or token',
    );
  }
  return { principal, to: `sdk-credentials:${principal.accountId}` };
}

/**
 * `POST /api/vault/runtime-grants/consume` (runtime credential) and `/api/sdk/credentials` (SB)
 * (docs/vault.md). Values come back from the actors sealed for transit and are opened here, at
 * the last moment, for the one answer that reveals them.
 */
export const vaultRuntimeRoute: RouteModule<VaultRouteServices> = (router, deps) => {
  // Counted per verified credential (after `runtimeCaller`): a forged credential naming another
  // credential's id is refused (401) before it can spend that credential's budget.
  const consumeLimit = vaultRateLimit(
    deps,
    'vault-consume-credential',
    deps.config.VAULT_CONSUME_PER_MINUTE,
    (req) => (req.res?.locals.runtimeCaller as RuntimeAuth | undefined)?.credentialId,
    'Too many grant requests for this runtime credential, retry later',
  );
  const runtimeCaller: RequestHandler = async (req, res, next) => {
    try {
      res.locals.runtimeCaller = await runtimeCallerOf(req, deps);
    } catch (err) {
      next(err);
      return;
    }
    next();
  };

  router.post('/api/vault/runtime-grants/consume', runtimeCaller, consumeLimit, async (req, res) => {
    const caller = res.locals.runtimeCaller as RuntimeAuth;
    const { grantId, action } = parseBody(ConsumeBodySchema, req);
    if (!GRANT_ID.test(grantId)) throw errors.notFound('Grant not found');
    const to = `vault-grant:${grantId}`;
    if (action === 'cleanup') {
      const reply = await deps.system.ask(to, 'vault-grant.cleanup', {}, { auth: caller });
      res.json(CleanupResponseSchema.parse(reply));
      return;
    }
    const reply = GrantConsumeReplySchema.parse(
      await deps.system.ask(to, 'vault-grant.consume', {}, { auth: caller }),
    );
    const value = vaultServiceOf(deps).cipher.openTransit(
      'consume',
      reply.grant.id,
      reply.secret.sealedValue,
    );
    res.json(ConsumeResponseSchema.parse({ secret: { name: reply.secret.name, value }, grant: reply.grant }));
  });

  router.post('/api/sdk/credentials', secretAnswer, deps.requireAuth, async (req, res) => {
    const { principal, to } = credentialsOf(res);
    const body = parseBody(CreateCredentialBodySchema, req);
    const reply = CredentialsCreateReplySchema.parse(
      await deps.system.ask(to, 'sdk-credentials.create', body, { auth: principal }),
    );
    const value = vaultServiceOf(deps).cipher.openTransit(
      'credential',
      reply.credential.id,
      reply.sealedValue,
    );
    res
      .status(201)
      .json(
        CredentialRevealResponseSchema.parse({ credential: reply.credential, value, oneTimeReveal: true }),
      );
  });

  router.get('/api/sdk/credentials', deps.requireAuth, async (_req, res) => {
    const { principal, to } = credentialsOf(res);
    const reply = await deps.system.ask(to, 'sdk-credentials.list', {}, { auth: principal });
    res.json(CredentialListResponseSchema.parse(reply));
  });

  router.delete('/api/sdk/credentials', deps.requireAuth, async (req, res) => {
    const { principal, to } = credentialsOf(res);
    const raw = Object.keys(req.query).length > 0 ? { ...req.query } : (req.body ?? {});
    const input = DeleteCredentialInputSchema.safeParse(raw);
    if (!input.success) throw validationError('request', input.error);
    const reply = await deps.system.ask(to, 'sdk-credentials.revoke', input.data, { auth: principal });
    res.json(CredentialRevokeResponseSchema.parse(reply));
  });
};
