import { SDK_SCOPES, type SdkCredentialDocument } from '../../schemas/documents/vault';
import type { AccountDocument } from '../../schemas/documents/account';
import { errors, isAppError } from '../../schemas/errors';
import type { CredentialView } from '../../schemas/http/vault';
import {
  CredentialsCreateMessageSchema,
  CredentialsListMessageSchema,
  CredentialsRevokeMessageSchema,
  type CredentialsCreateReply,
} from '../../schemas/messages/vault';
import { defineActor } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import { capabilityRequired, planHas } from '../identity/plans';
import { operatorOf } from '../identity/principal';
import { mintCredential, SDK_CAPABILITY } from './sdk-credentials';
import type { VaultCipher } from './vault-cipher';
import type { VaultWorkspaces } from './vault-workspaces';
import { credentialView } from './vault.collection';

/** Most active runtime credentials of one account; the list returns at most this many of each state. */
export const MAX_ACTIVE_CREDENTIALS = 100;

export interface CredentialsActorOptions {
  repo: Repository<SdkCredentialDocument>;
  accounts: Repository<AccountDocument>;
  workspaces: VaultWorkspaces;
  cipher: VaultCipher;
  now: () => Date;
}

/** The account itself (session, account token or named token), not an agent key. */
function manager(auth: unknown, accountId: string) {
  const principal = operatorOf(auth, accountId);
  if (principal.subjectType !== 'account') {
    throw errors.forbidden('Runtime credentials are managed by the account, not by an agent key');
  }
  return principal;
}

/**
 * One account's runtime credentials: `sdk-credentials:<accountId>` (docs/vault.md). Minting
 * needs `access_sdk` (enterprise plans). The value is revealed once, in the reply to
 * `sdk-credentials.create`, sealed for transit; the document keeps a sha256 of its secret part.
 */
export function sdkCredentialsActor(options: CredentialsActorOptions) {
  const { repo, accounts, workspaces, cipher, now } = options;

  const duplicate = (name: string) =>
    errors.conflict(`An active runtime credential named "${name}" already exists`, { field: 'name' });

  return defineActor({
    kind: 'sdk-credentials',
    messages: {
      'sdk-credentials.create': CredentialsCreateMessageSchema,
      'sdk-credentials.list': CredentialsListMessageSchema,
      'sdk-credentials.revoke': CredentialsRevokeMessageSchema,
    },
    handlers: {
      'sdk-credentials.create': async (ctx, body): Promise<CredentialsCreateReply> => {
        const accountId = ctx.id;
        manager(ctx.auth, accountId);
        const account = await accounts.findById(accountId);
        if (!account || !planHas(account.plan, SDK_CAPABILITY)) {
          throw errors.forbidden(capabilityRequired(SDK_CAPABILITY));
        }
        const at = now();
        const expiresAt = body.expiresAt ? new Date(body.expiresAt) : undefined;
        if (expiresAt && expiresAt.getTime() <= at.getTime()) {
          throw errors.validation('expiresAt must be in the future', {
            details: [{ path: 'expiresAt', message: 'must be in the future' }],
          });
        }
        if (body.workspaceId && !(await workspaces.isMember(accountId, body.workspaceId))) {
          throw errors.notFound('Workspace not found', { field: 'workspaceId' });
        }
        const nameKey = body.name.toLowerCase();
        if (await repo.findOne({ accountId, nameKey, status: 'active' })) throw duplicate(body.name);
        if ((await repo.count({ accountId, status: 'active' })) >= MAX_ACTIVE_CREDENTIALS) {
          throw errors.conflict(
            `An account holds at most ${MAX_ACTIVE_CREDENTIALS} active runtime credentials`,
          );
        }
        const minted = mintCredential();
        const doc = await repo
          .insertUnique({
            _id: minted.id,
            version: 0,
            accountId,
            name: body.name,
            nameKey,
            scopes: body.scopes ?? [...SDK_SCOPES],
            ...(body.workspaceId ? { workspaceId: body.workspaceId } : {}),
            ...(expiresAt ? { expiresAt } : {}),
            secretHash: minted.secretHash,
            maskedValue: minted.maskedValue,
            status: 'active',
            createdAt: at,
          })
          .catch((err: unknown) => {
            throw isAppError(err) && err.code === 'CONFLICT' ? duplicate(body.name) : err;
          });
        return {
          credential: credentialView(doc),
          sealedValue: cipher.sealTransit('credential', doc._id, minted.value),
        };
      },

      'sdk-credentials.list': async (ctx): Promise<{ credentials: CredentialView[] }> => {
        manager(ctx.auth, ctx.id);
        const docs = await repo.find({ accountId: ctx.id }, { sort: { createdAt: 1, _id: 1 }, limit: 1000 });
        return { credentials: docs.map(credentialView) };
      },

      'sdk-credentials.revoke': async (
        ctx,
        { credentialId },
      ): Promise<{ revoked: true; credential: CredentialView }> => {
        manager(ctx.auth, ctx.id);
        const doc = await repo.findOne({ _id: credentialId, accountId: ctx.id });
        if (!doc) throw errors.notFound('Credential not found', { field: 'credentialId' });
        if (doc.status === 'revoked') return { revoked: true, credential: credentialView(doc) };
        try {
          const done = await repo.transition(doc._id, {
            from: ['active'],
            to: 'revoked',
            set: { revokedAt: now() },
          });
          return { revoked: true, credential: credentialView(done) };
        } catch (err) {
          if (!isAppError(err) || err.code !== 'CONFLICT') throw err;
          const current = await repo.getById(doc._id);
          return { revoked: true, credential: credentialView(current) };
        }
      },
    },
  });
}
