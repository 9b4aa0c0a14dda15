import type { IdentityRouteServices } from './accounts.route';
import type { Request, Response } from 'express';
import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  CreateBearerTokenBodySchema,
  DeleteBearerTokenInputSchema,
  ListBearerTokensResponseSchema,
  PatchBearerTokenBodySchema,
  RevealedBearerTokenResponseSchema,
  RevokedBearerTokenResponseSchema,
  UpdatedBearerTokenResponseSchema,
} from '../../schemas/http/bearer-tokens';
import { TokensViewReplySchema } from '../../schemas/messages/named-tokens';
import type { RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import { parseBody, parseQuery } from '../../src/http/validation';
import { secretAnswer } from '../../src/http/idempotency.middleware';

const PATH = '/api/bearer-tokens';

/** The account whose tokens the caller manages, and the actor holding them. */
function ownerOf(res: Response): { principal: Principal; actor: string } {
  const principal = requirePrincipal(res);
  if (!principal.accountId) throw errors.forbidden('Named tokens belong to an account');
  return { principal, actor: `named-tokens:${principal.accountId}` };
}

/** `DELETE` takes `{id}` as a JSON body or `?id=` (the body wins when both are given). */
function deleteInput(req: Request) {
  const body: unknown = req.body;
  const hasBodyId = typeof body === 'object' && body !== null && 'id' in body;
  return hasBodyId || req.query.id === undefined
    ? parseBody(DeleteBearerTokenInputSchema, req)
    : parseQuery(DeleteBearerTokenInputSchema, req);
}

/**
 * Named scoped bearer tokens of the caller's account (`named-tokens:<accountId>` actor): list,
 * create (value revealed once), rotate / revoke / rename / rescope, revoke by DELETE.
 */
export const bearerTokensRoute: RouteModule<IdentityRouteServices> = (router, deps) => {
  router.get(PATH, deps.requireAuth, async (_req, res) => {
    const { principal, actor } = ownerOf(res);
    res.json(
      ListBearerTokensResponseSchema.parse(
        await deps.system.ask(actor, 'named-tokens.list', {}, { auth: principal }),
      ),
    );
  });

  router.post(PATH, secretAnswer, deps.requireAuth, async (req, res) => {
    const { principal, actor } = ownerOf(res);
    const body = parseBody(CreateBearerTokenBodySchema, req);
    const reply = TokensViewReplySchema.parse(
      await deps.system.ask(actor, 'named-tokens.create', body, { auth: principal }),
    );
    res.status(201).json(RevealedBearerTokenResponseSchema.parse({ ...reply, oneTimeReveal: true }));
  });

  router.patch(PATH, secretAnswer, deps.requireAuth, async (req, res) => {
    const { principal, actor } = ownerOf(res);
    const body = parseBody(PatchBearerTokenBodySchema, req);
    const reply = TokensViewReplySchema.parse(
      await deps.system.ask(actor, 'named-tokens.update', body, { auth: principal }),
    );
    res.json(
      reply.bearerToken
        ? RevealedBearerTokenResponseSchema.parse({ ...reply, oneTimeReveal: true })
        : UpdatedBearerTokenResponseSchema.parse({ token: reply.token, oneTimeReveal: false }),
    );
  });

  router.delete(PATH, deps.requireAuth, async (req, res) => {
    const { principal, actor } = ownerOf(res);
    const input = deleteInput(req);
    const reply = TokensViewReplySchema.parse(
      await deps.system.ask(actor, 'named-tokens.revoke', input, { auth: principal }),
    );
    res.json(RevokedBearerTokenResponseSchema.parse({ revoked: true, token: reply.token }));
  });
};
