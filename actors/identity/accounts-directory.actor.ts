import { errors } from '../../schemas/errors';
import {
  ConfirmResetMessageSchema,
  CreateLoginLinkMessageSchema,
  ForgotPasswordMessageSchema,
  RedeemLoginLinkMessageSchema,
  SigninMessageSchema,
  SignupMessageSchema,
  accountAddress,
  type SigninReply,
  type SignupReply,
} from '../../schemas/messages/identity';
import type { Services } from '../../src/boot/services';
import { defineActor } from '../../src/kernel';
import { displayName, invalidResetToken } from './account.actor';
import { AccountsRepo, newAccountId, newWorkspaceId } from './accounts.repo';
import { DEFAULT_LOGIN_LINK_TTL_SEC, DEFAULT_RESET_TOKEN_TTL_MS } from './identity-options';
import { createMailer } from './mailer';
import { PasswordHasher, randomToken, secretsEqual, sha256Hex } from './passwords';
import { BEARER_CAPABILITY, PLANS, planHas, planMatchesAccountType } from './plans';
import { resetMail } from './reset-mail';
import { BEARER_EXPIRES_IN } from './token-service';

/** The same message for a wrong email and a wrong password. */
export const BAD_CREDENTIALS = 'Invalid email or password';
const BAD_LOGIN_LINK = 'Login link is invalid, expired or already used';

/**
 * `accounts:directory`: the operations that start from an email (signup, signin, password reset)
 * and the one-time login links. Every handler defers its work (bcrypt, documents, mail), so the
 * mailbox only orders their start: signups never queue behind each other's hashing. Changes to an
 * existing account go to its `account:<id>` actor.
 */
export function accountsDirectoryActor(services: Services) {
  const options = services.identity ?? {};
  const repo = new AccountsRepo(services.documents);
  const hasher = new PasswordHasher(options.bcryptCost);
  const mailer =
    options.mailer ?? createMailer(services.config, services.logger.child({ component: 'mail' }));
  const links = services.cache.namespace('identity:login:');
  const { tokens, system } = services;
  const resetTtlMs = options.resetTokenTtlMs ?? DEFAULT_RESET_TOKEN_TTL_MS;
  const linkTtlSec = options.loginLinkTtlSec ?? DEFAULT_LOGIN_LINK_TTL_SEC;

  const accountToken = (accountId: string, plan: keyof typeof PLANS) =>
    planHas(plan, BEARER_CAPABILITY) ? tokens.issue({ sub: accountId, typ: 'account' }).token : null;

  return defineActor({
    kind: 'accounts',
    messages: {
      'accounts.signup': SignupMessageSchema,
      'accounts.signin': SigninMessageSchema,
      'accounts.forgotPassword': ForgotPasswordMessageSchema,
      'accounts.confirmReset': ConfirmResetMessageSchema,
      'accounts.createLoginLink': CreateLoginLinkMessageSchema,
      'accounts.redeemLoginLink': RedeemLoginLinkMessageSchema,
    },
    handlers: {
      'accounts.signup': (ctx, input) => {
        const plan = PLANS[input.selectedPlan];
        if (!planMatchesAccountType(plan.id, input.accountType)) {
          const message = `plan ${plan.id} is not available to ${input.accountType} accounts`;
          throw errors.validation(`Invalid request body: selectedPlan: ${message}`, {
            details: [{ path: 'selectedPlan', message }],
          });
        }
        return ctx.defer(async (): Promise<SignupReply> => {
          // Cheap early answer for the common duplicate; the unique index still decides races.
          if (await repo.findByEmail(input.email)) {
            throw errors.conflict('An account with this email already exists', { field: 'email' });
          }
          const passwordHash = await hasher.hash(input.password);
          const accountId = newAccountId();
          const workspaceId = newWorkspaceId();
          const now = new Date();
          await repo.create({
            _id: accountId,
            email: input.email,
            passwordHash,
            ...(input.agentName
              ? { agentName: input.agentName, agentNameKey: input.agentName.toLowerCase() }
              : {}),
            accountType: input.accountType,
            plan: plan.id,
            planSelectionSkipped: input.planSelectionSkipped,
            defaultWorkspaceId: workspaceId,
            createdAt: now,
            updatedAt: now,
            version: 0,
          });
          await repo.ensureDefaultWorkspace(accountId, workspaceId, now);
          const token = accountToken(accountId, plan.id);
          ctx.logger.info({ plan: plan.id }, 'account created');
          return {
            accountId,
            credentials: {
              bearerToken: token,
              apiKey: token,
              plan: plan.id,
              planLabel: plan.label,
              capabilities: [...plan.capabilities],
              expiresIn: BEARER_EXPIRES_IN,
            },
          };
        });
      },

      'accounts.signin': (ctx, { email, password }) =>
        ctx.defer(async (): Promise<SigninReply> => {
          const account = await repo.findByEmail(email);
          // Unknown email: still one bcrypt comparison, so timing does not reveal accounts.
          const ok = await hasher.verify(password, account?.passwordHash);
          if (!account || !ok) throw errors.unauthorized(BAD_CREDENTIALS);
          const token = accountToken(account._id, account.plan);
          return {
            accountId: account._id,
            credentials: {
              bearerToken: token,
              apiKey: token,
              agentName: displayName(account),
              expiresIn: BEARER_EXPIRES_IN,
            },
          };
        }),

      // Sent with `tell`: the caller answers {success: true} before anything here runs.
      'accounts.forgotPassword': (ctx, { email }) =>
        ctx.defer(async () => {
          const account = await repo.findByEmail(email);
          if (!account) return {};
          const token = randomToken();
          const expiresAtMs = Date.now() + resetTtlMs;
          await system.ask(accountAddress(account._id), 'account.startReset', {
            tokenHash: sha256Hex(token),
            expiresAtMs,
          });
          try {
            await mailer.send(resetMail(services.config.PUBLIC_BASE_URL, account.email, token, resetTtlMs));
          } catch (err) {
            // Never the token nor the address: the reason only.
            ctx.logger.warn({ reason: (err as Error).message }, 'password reset mail not sent');
          }
          return {};
        }),

      'accounts.confirmReset': (ctx, { email, token, newPassword }) =>
        ctx.defer(async () => {
          const account = await repo.findByEmail(email);
          const tokenHash = sha256Hex(token);
          const pending = account?.reset;
          const valid =
            pending !== undefined &&
            secretsEqual(pending.tokenHash, tokenHash) &&
            pending.expiresAt > new Date();
          if (!account || !valid) throw invalidResetToken();
          const passwordHash = await hasher.hash(newPassword);
          await system.ask(accountAddress(account._id), 'account.completeReset', { tokenHash, passwordHash });
          ctx.logger.info('password reset completed');
          return { accountId: account._id };
        }),

      'accounts.createLoginLink': (ctx, { accountId, redirectTo }) =>
        ctx.defer(async () => {
          const st = randomToken();
          const value = JSON.stringify({ accountId, ...(redirectTo ? { redirectTo } : {}) });
          await links.set(sha256Hex(st), value, { ttlMs: linkTtlSec * 1000 });
          return { st, expiresIn: linkTtlSec };
        }),

      // `take` is atomic: of two concurrent redemptions exactly one gets the session.
      'accounts.redeemLoginLink': (ctx, { st }) =>
        ctx.defer(async () => {
          const raw = await links.take(sha256Hex(st));
          if (raw === null) throw errors.unauthorized(BAD_LOGIN_LINK);
          return JSON.parse(raw) as { accountId: string; redirectTo?: string };
        }),
    },
  });
}
