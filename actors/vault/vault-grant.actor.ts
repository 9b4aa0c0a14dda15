import type { Filter } from 'mongodb';
import type { SdkScope, VaultGrantDocument, VaultSecretDocument } from '../../schemas/documents/vault';
import { errors, isAppError } from '../../schemas/errors';
import {
  GrantCleanupMessageSchema,
  GrantConsumeMessageSchema,
  RuntimeAuthSchema,
  type GrantConsumeReply,
  type RuntimeAuth,
} from '../../schemas/messages/vault';
import { defineActor } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import type { GrantLifecycle } from './grant-lifecycle';
import { runtimeActor } from './vault-audit';
import type { VaultCipher } from './vault-cipher';
import { storeResealed } from './vault-rekey';
import type { Logger } from '../../src/logging/logger';

/** What the actor needs, wired by `actors/vault/vault.ts`. */
export interface GrantActorOptions {
  grants: Repository<VaultGrantDocument>;
  secrets: Repository<VaultSecretDocument>;
  cipher: VaultCipher;
  lifecycle: GrantLifecycle;
  now: () => Date;
  /** Where a failed lazy re-seal is reported (ids only). */
  logger?: Logger;
}

/** The caller: a verified runtime credential (the consume route), never a user principal. */
function runtimeCaller(auth: unknown, scope: SdkScope): RuntimeAuth {
  const parsed = RuntimeAuthSchema.safeParse(auth);
  if (!parsed.success) throw errors.unauthorized('A runtime credential is required');
  if (!parsed.data.scopes.includes(scope)) {
    throw errors.forbidden(`This runtime credential lacks the scope ${scope}`, { requiredScope: scope });
  }
  return parsed.data;
}

const REFUSALS: Record<string, string> = {
  consumed: 'Grant already consumed: a grant returns its secret once',
  revoked: 'Grant revoked',
  expired: 'Grant expired: request a new grant',
  gone: 'Grant no longer exists',
};

/**
 * One runtime grant: `vault-grant:<grantId>` (docs/vault.md). The document is the state, read at
 * every message (another node, a panic or the sweep may have moved it); the actor keeps nothing
 * in memory. Created by the account's vault actor after its checks; every later move is here or
 * in `GrantLifecycle`, each a conditional write on `status: 'active'`.
 *
 * - `vault-grant.consume`: the value, exactly once. The winner is decided by one `findOneAndUpdate`
 *   filtered on `status: 'active'` and `expiresAt > now`: under any concurrency, on any number
 *   of nodes, one call gets the value and every other gets 403.
 * - `vault-grant.cleanup`: the runtime is done (or gives up): revoked without returning anything.
 *   Idempotent.
 */
export function vaultGrantActor(options: GrantActorOptions) {
  const { grants, secrets, cipher, lifecycle, now, logger } = options;

  /** The grant, if it belongs to the credential's account (another account's reads as missing). */
  async function load(grantId: string, caller: RuntimeAuth): Promise<VaultGrantDocument> {
    const grant = await grants.findById(grantId);
    if (!grant || grant.accountId !== caller.accountId) throw errors.notFound('Grant not found');
    if (caller.workspaceId && grant.workspaceId !== caller.workspaceId) {
      throw errors.forbidden('This runtime credential is restricted to another workspace');
    }
    return grant;
  }

  async function refuse(grant: VaultGrantDocument, caller: RuntimeAuth, state: string): Promise<never> {
    await lifecycle.record(grant, 'denied', runtimeActor(caller), `grant_${state}`);
    throw errors.forbidden(REFUSALS[state] ?? `Grant ${state}`, { reason: `grant_${state}` });
  }

  return defineActor({
    kind: 'vault-grant',
    messages: {
      'vault-grant.consume': GrantConsumeMessageSchema,
      'vault-grant.cleanup': GrantCleanupMessageSchema,
    },
    handlers: {
      'vault-grant.consume': async (ctx): Promise<GrantConsumeReply> => {
        const caller = runtimeCaller(ctx.auth, 'vault:consume');
        const grant = await load(ctx.id, caller);
        if (grant.status !== 'active') return refuse(grant, caller, grant.status);
        const at = now();
        if (grant.expiresAt.getTime() <= at.getTime()) {
          await lifecycle.expire(grant);
          return refuse(grant, caller, 'expired');
        }
        const secret = await secrets.findById(grant.secretId);
        if (!secret || secret.status !== 'active') {
          const reason = secret ? 'secret_disabled' : 'secret_deleted';
          await lifecycle.revokeWhere({ secretId: grant.secretId }, reason, runtimeActor(caller));
          await lifecycle.record(grant, 'denied', runtimeActor(caller), reason);
          throw errors.forbidden(secret ? 'Secret disabled' : 'Secret deleted', { reason });
        }
        // Opened before the decisive write: a key problem must not burn the grant.
        const { value, resealed } = cipher.openSecretForUse(
          { accountId: secret.accountId, secretId: secret._id, valueVersion: secret.valueVersion },
          secret.sealedValue,
        );
        // Under a previous master key: store it under the current one (lazy rotation). Best
        // effort: the startup pass of the next boot catches what a failure here leaves.
        if (resealed) {
          await storeResealed(secrets, secret._id, secret.sealedValue, resealed).catch((err: unknown) => {
            logger?.warn({ err, secretId: secret._id }, 'vault: lazy re-seal failed');
          });
        }
        const won = await grants.findOneAndUpdate(
          { _id: grant._id, status: 'active', expiresAt: { $gt: at } } as Filter<VaultGrantDocument>,
          { $set: { status: 'consumed', consumedAt: at }, $inc: { version: 1 } },
        );
        if (!won) {
          const current = await grants.findById(grant._id);
          const state = current ? (current.status === 'active' ? 'expired' : current.status) : 'gone';
          return refuse(grant, caller, state);
        }
        await lifecycle.record(won, 'consumed', runtimeActor(caller));
        return {
          secret: { name: won.secretName, sealedValue: cipher.sealTransit('consume', won._id, value) },
          grant: { id: won._id, status: 'consumed' },
        };
      },

      'vault-grant.cleanup': async (
        ctx,
      ): Promise<{ grant: { id: string; status: VaultGrantDocument['status'] } }> => {
        const caller = runtimeCaller(ctx.auth, 'vault:cleanup');
        const grant = await load(ctx.id, caller);
        if (grant.status === 'revoked' || grant.status === 'expired') {
          return { grant: { id: grant._id, status: grant.status } };
        }
        try {
          const done = await grants.transition(grant._id, {
            from: ['active', 'consumed'],
            to: 'revoked',
            set: { revokedAt: now(), revokedReason: 'cleanup' },
          });
          await lifecycle.record(done, 'cleaned', runtimeActor(caller));
          return { grant: { id: done._id, status: done.status } };
        } catch (err) {
          // Moved meanwhile (revoked, expired): the cleanup has nothing left to do.
          if (!isAppError(err) || err.code !== 'CONFLICT') throw err;
          const current = await load(ctx.id, caller);
          return { grant: { id: current._id, status: current.status } };
        }
      },
    },
  });
}
