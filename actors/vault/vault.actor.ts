import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  VaultAccessMessageSchema,
  VaultAssignMessageSchema,
  VaultAssignmentsMessageSchema,
  VaultAuditMessageSchema,
  VaultCreateMessageSchema,
  VaultDeleteMessageSchema,
  VaultListMessageSchema,
  VaultUnassignMessageSchema,
  VaultUpdateMessageSchema,
} from '../../schemas/messages/vault';
import { defineActor } from '../../src/kernel';
import { operatorOf } from '../identity/principal';
import type { VaultAccess } from './vault-access';
import { principalActor, type VaultAuditLog } from './vault-audit';
import type { VaultCipher } from './vault-cipher';
import type { VaultSecrets } from './vault-secrets';

/** What the actor needs, wired by `actors/vault/vault.ts`. */
export interface VaultActorOptions {
  secrets: VaultSecrets;
  access: VaultAccess;
  audit: VaultAuditLog;
  cipher: VaultCipher;
  /** The public `agentRef` of an agent (for the audit log), from its internal id. */
  agentRefOf: (agentId: string) => Promise<string | undefined>;
}

/** Secrets, assignments and the audit log are managed by the account itself, not by its agents. */
function manager(auth: unknown, accountId: string): Principal {
  const principal = operatorOf(auth, accountId);
  if (principal.subjectType !== 'account') {
    throw errors.forbidden(
      'The vault is managed by the account (session or account token), not by an agent key',
    );
  }
  return principal;
}

/**
 * One account's vault: `vault:<accountId>` (docs/vault.md). Secrets, assignments, runtime access
 * decisions (which create `vault-grant:<id>` documents) and the audit log. The documents are the
 * state; the actor keeps none. The envelope's principal must be this account (tenant isolation
 * holds even for a forged message).
 */
export function vaultActor(options: VaultActorOptions) {
  const { secrets, access, audit, cipher } = options;
  const actorOf = (principal: Principal) => principalActor(principal, options.agentRefOf);

  return defineActor({
    kind: 'vault',
    messages: {
      'vault.create': VaultCreateMessageSchema,
      'vault.list': VaultListMessageSchema,
      'vault.update': VaultUpdateMessageSchema,
      'vault.delete': VaultDeleteMessageSchema,
      'vault.assign': VaultAssignMessageSchema,
      'vault.assignments': VaultAssignmentsMessageSchema,
      'vault.unassign': VaultUnassignMessageSchema,
      'vault.access': VaultAccessMessageSchema,
      'vault.audit': VaultAuditMessageSchema,
    },
    handlers: {
      'vault.create': async (ctx, body) => {
        const caller = manager(ctx.auth, ctx.id);
        const value = cipher.openTransit('create', ctx.id, body.sealedValue);
        const secret = await secrets.create(ctx.id, await actorOf(caller), {
          workspaceId: body.workspaceId,
          name: body.name,
          value,
        });
        return { secret };
      },

      'vault.list': async (ctx, query) => {
        manager(ctx.auth, ctx.id);
        return { secrets: await secrets.list(ctx.id, query) };
      },

      'vault.update': async (ctx, body) => {
        const actor = await actorOf(manager(ctx.auth, ctx.id));
        switch (body.action) {
          case 'disable':
            return { secret: await secrets.disable(ctx.id, actor, body.secretId) };
          case 'enable':
            return { secret: await secrets.enable(ctx.id, actor, body.secretId) };
          case 'rotate': {
            if (!body.sealedValue) throw errors.validation('value is required to rotate', { field: 'value' });
            const value = cipher.openTransit('rotate', ctx.id, body.sealedValue);
            return { secret: await secrets.rotate(ctx.id, actor, body.secretId, value) };
          }
        }
      },

      'vault.delete': async (ctx, { secretId }) => {
        const actor = await actorOf(manager(ctx.auth, ctx.id));
        return { deleted: true, secret: await secrets.remove(ctx.id, actor, secretId) };
      },

      'vault.assign': async (ctx, body) => {
        const actor = await actorOf(manager(ctx.auth, ctx.id));
        return { assignment: await secrets.assign(ctx.id, actor, body) };
      },

      'vault.assignments': async (ctx, query) => {
        manager(ctx.auth, ctx.id);
        return { assignments: await secrets.listAssignments(ctx.id, query) };
      },

      'vault.unassign': async (ctx, body) => {
        const actor = await actorOf(manager(ctx.auth, ctx.id));
        return { deleted: true, assignment: await secrets.unassign(ctx.id, actor, body) };
      },

      // Any caller acting for the account: the account itself, a named token with the `app`
      // scope, or one of its deployed agents (which run the skills and apps).
      'vault.access': async (ctx, body) => {
        const caller = operatorOf(ctx.auth, ctx.id);
        return access.request(ctx.id, await actorOf(caller), body);
      },

      'vault.audit': async (ctx, query) => {
        manager(ctx.auth, ctx.id);
        return audit.list(ctx.id, query);
      },
    },
  });
}
