import { createHash } from 'node:crypto';
import type { AccountDocument } from '../../schemas/documents/account';
import { errors, isAppError } from '../../schemas/errors';
import {
  CompleteResetMessageSchema,
  IssueTokenMessageSchema,
  ProfileMessageSchema,
  StartResetMessageSchema,
  TransitionPlanMessageSchema,
  type ProfileReply,
  type TransitionPlanReply,
} from '../../schemas/messages/identity';
import type { Services } from '../../src/boot/services';
import { defineActor, type ActorContext } from '../../src/kernel';
import { AccountsRepo } from './accounts.repo';
import { BEARER_CAPABILITY, PLANS, capabilityRequired, planHas } from './plans';
import { BEARER_EXPIRES_IN } from './token-service';

/** The display name of an account: the one given at signup, else the local part of its email. */
export function displayName(account: Pick<AccountDocument, 'agentName' | 'email'>): string {
  return account.agentName ?? account.email.split('@')[0];
}

export function profileOf(account: AccountDocument): ProfileReply {
  const plan = PLANS[account.plan];
  return {
    agentName: displayName(account),
    accountType: account.accountType,
    plan: plan.id,
    planLabel: plan.label,
    capabilities: [...plan.capabilities],
  };
}

/** Only the account itself (its session or its tokens) may act on it through the routes. */
function assertSelf(ctx: ActorContext<unknown>): void {
  if (ctx.auth?.accountId !== ctx.id) throw errors.forbidden('Not allowed on this account');
}

const BILLING = { mode: 'free_beta', charged: false } as const;

/**
 * `account:<id>`: one operator account. It keeps no state between messages: each turn reads the
 * document and every change is a conditional write (version or expected field values), so the
 * directory and other nodes never see a stale copy win.
 */
export function accountActor(services: Services) {
  const repo = new AccountsRepo(services.documents);
  const { tokens } = services;

  async function transitionPlan(
    ctx: ActorContext<undefined>,
    newPlan: AccountDocument['plan'],
    reason: string,
  ): Promise<TransitionPlanReply> {
    const target = PLANS[newPlan];
    // A concurrent change (another node, a reset) moves the version: reload and decide again.
    for (let attempt = 0; ; attempt++) {
      const account = await repo.get(ctx.id);
      const oldPlan = account.plan;
      const transition = { oldPlan, newPlan, newCapabilities: [...target.capabilities] };
      if (oldPlan === newPlan) return { transitioned: false, noChange: true, transition, billing: BILLING };
      const now = new Date();
      try {
        await repo.accounts.updateIfVersion(ctx.id, account.version, {
          // The account type follows the plan (self-serve upgrade from retail to enterprise).
          $set: { plan: newPlan, accountType: target.accountType, updatedAt: now },
        });
      } catch (err) {
        // The store's CONFLICT and NOT_FOUND name the document id: never let them reach a body.
        if (isAppError(err) && err.code === 'CONFLICT') {
          if (attempt < 2) continue;
          throw errors.conflict('The account changed at the same time: retry');
        }
        if (isAppError(err) && err.code === 'NOT_FOUND') throw errors.notFound('Account not found');
        throw err;
      }
      // Keyed by the envelope id: a redelivered message records the transition once.
      const recordId = `pt_${createHash('sha256').update(ctx.envelope.id).digest('hex').slice(0, 24)}`;
      await repo.transitions.insertIfAbsent({
        _id: recordId,
        accountId: ctx.id,
        oldPlan,
        newPlan,
        oldAccountType: account.accountType,
        newAccountType: target.accountType,
        reason,
        billing: BILLING,
        at: now,
      });
      // Losing bearer access ends the account tokens already issued (named tokens are separate).
      if (planHas(oldPlan, BEARER_CAPABILITY) && !planHas(newPlan, BEARER_CAPABILITY)) {
        // Cut at this moment, not at `now` (taken before the writes): a token issued meanwhile dies too.
        await tokens.revokeSubjectBefore(ctx.id);
      }
      ctx.logger.info({ oldPlan, newPlan, reason }, 'plan transitioned');
      return { transitioned: true, noChange: false, transition, billing: BILLING };
    }
  }

  return defineActor({
    kind: 'account',
    messages: {
      'account.profile': ProfileMessageSchema,
      'account.issueToken': IssueTokenMessageSchema,
      'account.transitionPlan': TransitionPlanMessageSchema,
      'account.startReset': StartResetMessageSchema,
      'account.completeReset': CompleteResetMessageSchema,
    },
    handlers: {
      'account.profile': async (ctx) => {
        assertSelf(ctx);
        return profileOf(await repo.get(ctx.id));
      },

      'account.issueToken': async (ctx) => {
        assertSelf(ctx);
        const account = await repo.get(ctx.id);
        if (!planHas(account.plan, BEARER_CAPABILITY)) {
          throw errors.forbidden(capabilityRequired(BEARER_CAPABILITY), { capability: BEARER_CAPABILITY });
        }
        const { token } = tokens.issue({ sub: ctx.id, typ: 'account' });
        return { bearerToken: token, apiKey: token, expiresIn: BEARER_EXPIRES_IN };
      },

      'account.transitionPlan': (ctx, { newPlan, reason }) => {
        assertSelf(ctx);
        return transitionPlan(ctx, newPlan, reason);
      },

      // Internal (from accounts:directory): a newer reset request replaces the pending one.
      'account.startReset': async (ctx, { tokenHash, expiresAtMs }) => {
        const now = new Date();
        const res = await repo.accounts.updateOne(
          { _id: ctx.id },
          {
            $set: { reset: { tokenHash, expiresAt: new Date(expiresAtMs) }, updatedAt: now },
            $inc: { version: 1 },
          },
        );
        if (res.matched === 0) throw errors.notFound('Account not found');
        return {};
      },

      // Internal: the filter on the token hash makes the token single use, whatever the races.
      'account.completeReset': async (ctx, { tokenHash, passwordHash }) => {
        const now = new Date();
        const updated = await repo.accounts.findOneAndUpdate(
          { _id: ctx.id, 'reset.tokenHash': tokenHash, 'reset.expiresAt': { $gt: now } },
          {
            $set: { passwordHash, passwordChangedAt: now, updatedAt: now },
            $unset: { reset: '' },
            $inc: { version: 1 },
          },
        );
        if (!updated) throw invalidResetToken();
        // Tokens issued before the reset die with the old password (sessions: the front door). The
        // cut is taken now, to the millisecond and after every token this process issued so far.
        await tokens.revokeSubjectBefore(ctx.id);
        return {};
      },
    },
  });
}

/** The one answer for a wrong, expired, used or foreign reset token. */
export function invalidResetToken() {
  return errors.validation('Invalid or expired password reset token', {
    details: [{ path: 'token', message: 'invalid or expired' }],
  });
}
