import type { Principal, TokenScope } from '../../schemas/auth';
import type { NamedTokenAuditEntry, NamedTokenDocument } from '../../schemas/documents/named-token';
import { errors, isAppError } from '../../schemas/errors';
import type { BearerTokenView } from '../../schemas/http/bearer-tokens';
import {
  TokensCreateMessageSchema,
  TokensListMessageSchema,
  TokensRevokeMessageSchema,
  TokensTouchMessageSchema,
  TokensUpdateMessageSchema,
} from '../../schemas/messages/named-tokens';
import { defineActor } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import type { NamedTokenDirectory } from './named-token-directory';
import { bearerTokenView, maskToken, newNamedTokenId } from './named-tokens.collection';
import { operatorOf } from './principal';
import type { TokenService } from './token-service';

/** What the actor needs, wired by `actors/registry.ts`. */
export interface NamedTokensActorOptions {
  repo: Repository<NamedTokenDocument>;
  tokens: TokenService;
  directory: NamedTokenDirectory;
  /**
   * Whether the account is a member of `workspaceId`, any role (docs/workspaces.md); an unknown
   * workspace, or one the account is not a member of, is 404.
   * Default: not checked (no workspace registry known).
   */
  isWorkspaceMember?: (accountId: string, workspaceId: string) => Promise<boolean>;
}

/** Most tokens one account may hold (live and revoked) and `named-tokens.list` returns. */
export const MAX_NAMED_TOKENS = 1000;

/** The caller, who must be the account itself (session or account/named token), not an agent key. */
function manager(auth: unknown, accountId: string): Principal {
  const principal = operatorOf(auth, accountId);
  if (principal.subjectType !== 'account') {
    throw errors.forbidden(
      'Named tokens are managed by the account (session or account token), not by an agent key',
    );
  }
  return principal;
}

/**
 * A caller authenticated with a scoped token can only hand out what it has: the scopes it grants
 * (or rotates, revealing a value) must be a non-empty subset of its own. Unscoped callers may
 * grant anything.
 */
function assertWithinCallerScopes(caller: Principal, scopes: readonly TokenScope[], what: string): void {
  const own = caller.scopes;
  if (!own || own.length === 0) return;
  const beyond = scopes.length === 0 ? ['(unrestricted)'] : scopes.filter((s) => !own.includes(s));
  if (beyond.length > 0) {
    throw errors.forbidden(
      `A scoped token cannot ${what} beyond its own scopes (${own.join(', ')}): ${beyond.join(', ')}`,
      {
        requiredScopes: beyond,
      },
    );
  }
}

function auditBy(caller: Principal): NamedTokenAuditEntry['by'] {
  return {
    subjectType: caller.subjectType,
    via: caller.via,
    ...(caller.tokenId ? { tokenId: caller.tokenId } : {}),
  };
}

function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s) => b.includes(s));
}

const duplicateName = (name: string) =>
  errors.conflict(`A live token named "${name}" already exists`, { field: 'name' });

/**
 * One account's named scoped bearer tokens: `named-tokens:<accountId>`. The documents are the
 * state (read per message); every change is a conditional write (`updateIfVersion`), then
 * published to the cache-held directory so the front door enforces it on the next request.
 *
 * - Values are never stored: only the current `jti` and the masked form.
 * - Rotate revokes the old `jti` **before** writing the new one: if the write then fails, the
 *   old value is already refused and a new rotate recovers (never two live values).
 * - Revoke is final and idempotent; the audit trail (`audit`) keeps every action.
 * - Rescope changes the record the front door checks, so it applies to the value already issued.
 */
export function namedTokensActor(options: NamedTokensActorOptions) {
  const { repo, tokens, directory } = options;

  async function find(accountId: string, id: string): Promise<NamedTokenDocument> {
    const doc = await repo.findOne({ _id: id, accountId });
    if (!doc) throw errors.notFound('Token not found', { field: 'id' });
    return doc;
  }

  async function assertNameFree(accountId: string, name: string, exceptId?: string): Promise<void> {
    const clash = await repo.findOne({ accountId, nameKey: name.toLowerCase(), status: 'live' });
    if (clash && clash._id !== exceptId) throw duplicateName(name);
  }

  /** A lost race on the unique index reads as the same 409 as the check before it. */
  const onDuplicate = (name: string | undefined) => (err: unknown) => {
    const fields =
      isAppError(err) && Array.isArray(err.details.fields) ? (err.details.fields as unknown[]) : [];
    if (name !== undefined && fields.includes('nameKey')) throw duplicateName(name);
    throw err;
  };

  async function revoke(doc: NamedTokenDocument, caller: Principal): Promise<NamedTokenDocument> {
    if (doc.status === 'revoked') return doc;
    await tokens.revoke(doc.jti, doc.expiresAt);
    const at = new Date();
    const updated = await repo.updateIfVersion(doc._id, doc.version, {
      $set: { status: 'revoked', revokedAt: at },
      $push: { audit: { action: 'revoked', at, by: auditBy(caller) } },
    });
    await directory.publish(updated);
    return updated;
  }

  return defineActor({
    kind: 'named-tokens',
    messages: {
      'named-tokens.create': TokensCreateMessageSchema,
      'named-tokens.list': TokensListMessageSchema,
      'named-tokens.update': TokensUpdateMessageSchema,
      'named-tokens.revoke': TokensRevokeMessageSchema,
      'named-tokens.touch': TokensTouchMessageSchema,
    },
    handlers: {
      'named-tokens.create': async (ctx, body): Promise<{ token: BearerTokenView; bearerToken: string }> => {
        const accountId = ctx.id;
        const caller = manager(ctx.auth, accountId);
        const scopes = body.scopes ?? [];
        assertWithinCallerScopes(caller, scopes, 'grant');
        if (
          body.workspaceId &&
          options.isWorkspaceMember &&
          !(await options.isWorkspaceMember(accountId, body.workspaceId))
        ) {
          throw errors.notFound('Workspace not found', { field: 'workspaceId' });
        }
        await assertNameFree(accountId, body.name);
        if ((await repo.count({ accountId })) >= MAX_NAMED_TOKENS) {
          throw errors.conflict(`An account holds at most ${MAX_NAMED_TOKENS} named tokens`);
        }
        const id = newNamedTokenId();
        const issued = tokens.issue({
          sub: accountId,
          typ: 'named',
          tid: id,
          acc: accountId,
          ...(scopes.length > 0 ? { scopes } : {}),
        });
        const now = new Date();
        const doc = await repo
          .insertUnique({
            _id: id,
            version: 0,
            accountId,
            name: body.name,
            nameKey: body.name.toLowerCase(),
            ...(body.workspaceId ? { workspaceId: body.workspaceId } : {}),
            ...(body.projectId ? { projectId: body.projectId } : {}),
            scopes,
            status: 'live',
            jti: issued.jti,
            expiresAt: issued.expiresAt,
            maskedToken: maskToken(issued.token),
            lastUsedAt: null,
            createdAt: now,
            audit: [{ action: 'created', at: now, by: auditBy(caller), to: { name: body.name, scopes } }],
          })
          .catch(onDuplicate(body.name));
        await directory.publish(doc);
        return { token: bearerTokenView(doc), bearerToken: issued.token };
      },

      'named-tokens.list': async (ctx): Promise<{ tokens: BearerTokenView[] }> => {
        manager(ctx.auth, ctx.id);
        const docs = await repo.find(
          { accountId: ctx.id },
          { sort: { createdAt: 1, _id: 1 }, limit: MAX_NAMED_TOKENS },
        );
        return { tokens: docs.map(bearerTokenView) };
      },

      'named-tokens.update': async (ctx, body): Promise<{ token: BearerTokenView; bearerToken?: string }> => {
        const caller = manager(ctx.auth, ctx.id);
        const doc = await find(ctx.id, body.id);
        if (body.action === 'revoke') return { token: bearerTokenView(await revoke(doc, caller)) };
        if (doc.status === 'revoked') {
          throw errors.conflict('Token is revoked: it cannot be rotated, renamed or rescoped', {
            currentState: 'revoked',
          });
        }
        const at = new Date();
        const by = auditBy(caller);
        const set: Partial<NamedTokenDocument> = {};
        const audit: NamedTokenAuditEntry[] = [];
        const renamed = body.name !== undefined && body.name !== doc.name;
        if (renamed && body.name !== undefined) {
          if (body.name.toLowerCase() !== doc.nameKey) await assertNameFree(ctx.id, body.name, doc._id);
          Object.assign(set, { name: body.name, nameKey: body.name.toLowerCase() });
          audit.push({ action: 'renamed', at, by, from: doc.name, to: body.name });
        }
        const scopes = body.scopes ?? doc.scopes;
        if (body.scopes !== undefined && !sameScopes(body.scopes, doc.scopes)) {
          // Rescoping a token the caller could not have created would widen the caller's reach.
          assertWithinCallerScopes(caller, doc.scopes, 'change a token');
          assertWithinCallerScopes(caller, body.scopes, 'grant');
          set.scopes = body.scopes;
          audit.push({ action: 'rescoped', at, by, from: doc.scopes, to: body.scopes });
        }
        let bearerToken: string | undefined;
        if (body.action === 'rotate') {
          // Rotation reveals a value: only for tokens within the caller's own reach.
          assertWithinCallerScopes(caller, scopes, 'rotate a token');
          await tokens.revoke(doc.jti, doc.expiresAt);
          const issued = tokens.issue({
            sub: ctx.id,
            typ: 'named',
            tid: doc._id,
            acc: ctx.id,
            ...(scopes.length > 0 ? { scopes } : {}),
          });
          bearerToken = issued.token;
          Object.assign(set, {
            jti: issued.jti,
            expiresAt: issued.expiresAt,
            maskedToken: maskToken(issued.token),
            rotatedAt: at,
          });
          audit.push({ action: 'rotated', at, by });
        }
        if (audit.length === 0) return { token: bearerTokenView(doc) };
        const updated = await repo
          .updateIfVersion(doc._id, doc.version, { $set: set, $push: { audit: { $each: audit } } })
          .catch(onDuplicate(renamed ? body.name : undefined));
        await directory.publish(updated);
        return { token: bearerTokenView(updated), ...(bearerToken ? { bearerToken } : {}) };
      },

      'named-tokens.revoke': async (ctx, { id }): Promise<{ token: BearerTokenView }> => {
        const caller = manager(ctx.auth, ctx.id);
        return { token: bearerTokenView(await revoke(await find(ctx.id, id), caller)) };
      },

      'named-tokens.touch': async (ctx, { id, at }): Promise<void> => {
        // Usage statistics: `$max` commutes, so no version check (and no conflict with changes).
        await repo.updateOne({ _id: id, accountId: ctx.id }, { $max: { lastUsedAt: new Date(at) } });
      },
    },
  });
}
