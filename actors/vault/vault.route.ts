import type { CachePort } from '../../src/store/cache';
import type { VaultService } from './vault';
import type { Request, RequestHandler, Response } from 'express';
import { assertValueSize } from './vault-secrets';
import { errors } from '../../schemas/errors';
import {
  AccessBodySchema,
  AccessResponseSchema,
  AssignmentBodySchema,
  AssignmentDeleteResponseSchema,
  AssignmentListResponseSchema,
  AssignmentResponseSchema,
  AuditQuerySchema,
  AuditResponseSchema,
  CreateSecretBodySchema,
  DeleteSecretInputSchema,
  ListAssignmentsQuerySchema,
  ListSecretsQuerySchema,
  PatchSecretBodySchema,
  SecretDeleteResponseSchema,
  SecretListResponseSchema,
  SecretResponseSchema,
} from '../../schemas/http/vault';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { principalOf, rateLimit, requirePrincipal } from '../../src/http/auth';
import { parseBody, parseQuery, validationError } from '../../src/http/validation';
import { secretAnswer } from '../../src/http/idempotency.middleware';

/** What the vault routes read from the process's services. */
export interface VaultRouteServices {
  readonly vault: VaultService;
  readonly cache: CachePort;
}

/** The caller and its account's vault actor; a self-registered agent has no account (403). */
function vaultOf(res: Response) {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden('The vault belongs to an operator account: use an account session or token');
  }
  return { principal, accountId: principal.accountId, to: `vault:${principal.accountId}` };
}

/** The vault service of this node (absent only in front-door tests built without services). */
export function vaultServiceOf(deps: ResolvedAppDeps<VaultRouteServices>) {
  const vault = deps.services?.vault;
  if (!vault) throw errors.unavailable('The vault is not available on this node');
  return vault;
}

/**
 * A per-minute limit of a vault route on the cache port (shared by every front door on Redis):
 * 429 `RATE_LIMITED` with `Retry-After`. `perMinute` 0, or a node without services, = no limit.
 * `key` names what is counted (an account, a runtime credential); none = not counted.
 */
export function vaultRateLimit(
  deps: ResolvedAppDeps<VaultRouteServices>,
  name: string,
  perMinute: number,
  key: (req: Request) => string | undefined,
  message: string,
): RequestHandler {
  const cache = deps.services?.cache;
  if (!cache || perMinute <= 0) return (_req, _res, next) => next();
  return rateLimit({ cache, name, points: perMinute, durationSec: 60, key, message });
}

/** `DELETE` takes its input from the query string (the product's form) or a JSON body. */
function deleteInput(req: Request): unknown {
  return Object.keys(req.query).length > 0 ? { ...req.query } : (req.body ?? {});
}

/**
 * `/api/vault`, `/api/vault/assignments`, `/api/vault/audit` and `/api/vault/access`
 * (docs/vault.md). A value is size-checked here and sealed for transit before it leaves the front
 * door; answers are parsed with strict schemas (no value, no sealed value, no account id).
 */
export const vaultRoute: RouteModule<VaultRouteServices> = (router, deps) => {
  router.post('/api/vault', deps.requireAuth, async (req, res) => {
    const { principal, accountId, to } = vaultOf(res);
    const body = parseBody(CreateSecretBodySchema, req);
    assertValueSize(body.value);
    const sealedValue = vaultServiceOf(deps).cipher.sealTransit('create', accountId, body.value);
    const reply = await deps.system.ask(
      to,
      'vault.create',
      { workspaceId: body.workspaceId, name: body.name, sealedValue },
      { auth: principal },
    );
    res.status(201).json(SecretResponseSchema.parse(reply));
  });

  router.get('/api/vault', deps.requireAuth, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const query = parseQuery(ListSecretsQuerySchema, req);
    res.json(
      SecretListResponseSchema.parse(await deps.system.ask(to, 'vault.list', query, { auth: principal })),
    );
  });

  router.patch('/api/vault', deps.requireAuth, async (req, res) => {
    const { principal, accountId, to } = vaultOf(res);
    const { secretId, action, value } = parseBody(PatchSecretBodySchema, req);
    let sealedValue: string | undefined;
    if (value !== undefined) {
      assertValueSize(value);
      sealedValue = vaultServiceOf(deps).cipher.sealTransit('rotate', accountId, value);
    }
    const reply = await deps.system.ask(
      to,
      'vault.update',
      { secretId, action, ...(sealedValue ? { sealedValue } : {}) },
      { auth: principal },
    );
    res.json(SecretResponseSchema.parse(reply));
  });

  router.delete('/api/vault', deps.requireAuth, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const input = DeleteSecretInputSchema.safeParse(deleteInput(req));
    if (!input.success) throw validationError('request', input.error);
    const reply = await deps.system.ask(to, 'vault.delete', input.data, { auth: principal });
    res.json(SecretDeleteResponseSchema.parse(reply));
  });

  router.post('/api/vault/assignments', deps.requireAuth, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const body = parseBody(AssignmentBodySchema, req);
    const reply = await deps.system.ask(to, 'vault.assign', body, { auth: principal });
    res.status(201).json(AssignmentResponseSchema.parse(reply));
  });

  router.get('/api/vault/assignments', deps.requireAuth, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const query = parseQuery(ListAssignmentsQuerySchema, req);
    const reply = await deps.system.ask(to, 'vault.assignments', query, { auth: principal });
    res.json(AssignmentListResponseSchema.parse(reply));
  });

  router.delete('/api/vault/assignments', deps.requireAuth, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const input = AssignmentBodySchema.safeParse(deleteInput(req));
    if (!input.success) throw validationError('request', input.error);
    const reply = await deps.system.ask(to, 'vault.unassign', input.data, { auth: principal });
    res.json(AssignmentDeleteResponseSchema.parse(reply));
  });

  router.get('/api/vault/audit', deps.requireAuth, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const query = parseQuery(AuditQuerySchema, req);
    res.json(AuditResponseSchema.parse(await deps.system.ask(to, 'vault.audit', query, { auth: principal })));
  });

  // Per account: an account's agents and tokens share its budget (the key is the account).
  const accessLimit = vaultRateLimit(
    deps,
    'vault-access-account',
    deps.config.VAULT_ACCESS_PER_MINUTE,
    (req) => (req.res ? principalOf(req.res)?.accountId : undefined),
    'Too many vault access requests for this account, retry later',
  );

  router.post('/api/vault/access', secretAnswer, deps.requireAuth, accessLimit, async (req, res) => {
    const { principal, to } = vaultOf(res);
    const body = parseBody(AccessBodySchema, req);
    const reply = await deps.system.ask(to, 'vault.access', body, { auth: principal });
    res.json(AccessResponseSchema.parse(reply));
  });
};
