import type { IdentityRouteServices } from './accounts.route';
import type { RequestHandler, Response } from 'express';
import { PUBLIC_AGENTS } from './agent-directory.actor';
import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  AgentMeResponseSchema,
  CreateAgentBodySchema,
  CreateAgentResponseSchema,
  ListAgentsResponseSchema,
  RegisterBodySchema,
  RegisterResponseSchema,
  UpdateAgentBodySchema,
  UpdateAgentResponseSchema,
} from '../../schemas/http/agents';
import { AgentRecordSchema, AgentsRegisterReplySchema } from '../../schemas/messages/agents';
import type { RouteModule } from '../../src/http/app.types';
import { ipKey, rateLimit, requirePrincipal } from '../../src/http/auth';
import { parseBody } from '../../src/http/validation';
import { defaultRateLimit, rateLimitOf } from '../../src/config/rate-limits';
import { secretAnswer } from '../../src/http/idempotency.middleware';

/** `POST /register`: attempts per client address (valid or not) per window; defaults of RATE_LIMIT_REGISTER_PER_IP. */
export const REGISTER_RATE_LIMIT = Object.freeze({
  name: 'register-ip',
  ...defaultRateLimit('RATE_LIMIT_REGISTER_PER_IP'),
});

/** The registration's token lifetime, in the form the spec shows for `/register`. */
const REGISTER_EXPIRES_IN = '90d';

const passThrough: RequestHandler = (_req, _res, next) => next();

/** The operator account of the caller: an account (session, account or named token) or a deployed agent's key. */
function operatorOf(res: Response): { principal: Principal; accountId: string } {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden('Deployed agents belong to an operator account: use an account session or token');
  }
  return { principal, accountId: principal.accountId };
}

/**
 * Agents: `POST /register` (self-registration, no auth, rate-limited per address), `GET /agent/me`
 * (the calling agent's registration record), `GET`/`POST`/`PATCH /api/agents` (the operator's
 * deployed agents and subagents; PATCH changes an agent's lists and status, account only). Bodies are validated here and every reply is parsed with its response
 * schema, which also strips anything that is not a public field (internal ids never leave).
 */
export const agentsRoute: RouteModule<IdentityRouteServices> = (router, deps) => {
  const base = deps.config.PUBLIC_BASE_URL;
  const endpoints = { mcpEndpoint: `${base}/mcp`, toolsEndpoint: `${base}/tools` };
  const registerLimit = rateLimitOf(deps.config, 'RATE_LIMIT_REGISTER_PER_IP');
  const limitRegistrations =
    deps.services && registerLimit
      ? rateLimit({
          cache: deps.services.cache,
          name: REGISTER_RATE_LIMIT.name,
          ...registerLimit,
          key: (req) => ipKey(req),
          message: 'Too many registrations from this address, retry later',
        })
      : passThrough;

  router.post('/register', limitRegistrations, async (req, res) => {
    const body = parseBody(RegisterBodySchema, req);
    const reply = AgentsRegisterReplySchema.parse(
      await deps.system.ask(PUBLIC_AGENTS, 'agents.register', body),
    );
    res
      .status(201)
      .json(RegisterResponseSchema.parse({ ...reply, expiresIn: REGISTER_EXPIRES_IN, ...endpoints }));
  });

  router.get('/agent/me', deps.requireAuth, async (_req, res) => {
    const principal = requirePrincipal(res);
    if (principal.subjectType !== 'agent' || !principal.agentId) {
      throw errors.notFound('No agent registration for this token');
    }
    const record = AgentRecordSchema.parse(
      await deps.system.ask(`agent:${principal.agentId}`, 'agent.get', {}, { auth: principal }),
    );
    res.json(AgentMeResponseSchema.parse({ ...record, ...endpoints }));
  });

  router.get('/api/agents', deps.requireAuth, async (_req, res) => {
    const { principal, accountId } = operatorOf(res);
    const reply = await deps.system.ask(`agents:${accountId}`, 'agents.list', {}, { auth: principal });
    res.json(ListAgentsResponseSchema.parse(reply));
  });

  router.post('/api/agents', secretAnswer, deps.requireAuth, async (req, res) => {
    const { principal, accountId } = operatorOf(res);
    const body = parseBody(CreateAgentBodySchema, req);
    const reply = await deps.system.ask(`agents:${accountId}`, 'agents.create', body, { auth: principal });
    res.status(201).json(CreateAgentResponseSchema.parse(reply));
  });

  router.patch('/api/agents', deps.requireAuth, async (req, res) => {
    const { principal, accountId } = operatorOf(res);
    const body = parseBody(UpdateAgentBodySchema, req);
    const reply = await deps.system.ask(`agents:${accountId}`, 'agents.update', body, { auth: principal });
    res.json(UpdateAgentResponseSchema.parse(reply));
  });
};
