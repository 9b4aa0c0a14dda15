import type { Filter } from 'mongodb';
import type { AuditActor, VaultAssignmentDocument, VaultSecretDocument } from '../../schemas/documents/vault';
import { AppError, errors, isAppError } from '../../schemas/errors';
import {
  MAX_SECRET_VALUE_BYTES,
  type AssignmentBody,
  type AssignmentView,
  type SecretView,
} from '../../schemas/http/vault';
import type { Repository } from '../../src/store/mongo';
import type { GrantLifecycle } from './grant-lifecycle';
import type { VaultAuditLog } from './vault-audit';
import { maskValue, type VaultCipher } from './vault-cipher';
import type { VaultWorkspaces } from './vault-workspaces';
import { assignmentView, newAssignmentId, newSecretId, secretView } from './vault.collection';

/** Most secrets one account holds. */
export const MAX_SECRETS_PER_ACCOUNT = 1000;
/** Most assignments one account holds. */
export const MAX_ASSIGNMENTS_PER_ACCOUNT = 5000;

/** The size rule of a value (also checked by the front door, before the value travels). */
export function assertValueSize(value: string): void {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_SECRET_VALUE_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `value is too large: at most ${MAX_SECRET_VALUE_BYTES} bytes`, {
      field: 'value',
      limitBytes: MAX_SECRET_VALUE_BYTES,
    });
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface VaultSecretsDeps {
  secrets: Repository<VaultSecretDocument>;
  assignments: Repository<VaultAssignmentDocument>;
  workspaces: VaultWorkspaces;
  cipher: VaultCipher;
  audit: VaultAuditLog;
  lifecycle: GrantLifecycle;
  now: () => Date;
}

/**
 * Secrets and assignments of one account (the `vault:<accountId>` actor's work). Values arrive in
 * clear only as arguments of `create`/`rotate` (opened from their transit seal by the actor), are
 * sealed at once and never returned.
 */
export class VaultSecrets {
  constructor(private readonly deps: VaultSecretsDeps) {}

  /** The account's secret, or 404 (another account's reads the same). */
  async find(accountId: string, secretId: string): Promise<VaultSecretDocument> {
    const doc = await this.deps.secrets.findOne({ _id: secretId, accountId });
    if (!doc) throw errors.notFound('Secret not found', { field: 'secretId' });
    return doc;
  }

  async create(
    accountId: string,
    actor: AuditActor,
    input: { workspaceId?: string; name: string; value: string },
  ): Promise<SecretView> {
    const { secrets, workspaces, cipher } = this.deps;
    assertValueSize(input.value);
    const workspaceId = input.workspaceId ?? (await workspaces.defaultOf(accountId));
    await workspaces.assertManage(accountId, workspaceId);
    const duplicate = () =>
      errors.conflict(`A secret named ${input.name} already exists in this workspace`, { field: 'name' });
    if (await secrets.findOne({ accountId, workspaceId, name: input.name })) throw duplicate();
    if ((await secrets.count({ accountId })) >= MAX_SECRETS_PER_ACCOUNT) {
      throw errors.conflict(`An account holds at most ${MAX_SECRETS_PER_ACCOUNT} secrets`);
    }
    const id = newSecretId();
    const now = this.deps.now();
    const doc = await secrets
      .insertUnique({
        _id: id,
        version: 0,
        accountId,
        workspaceId,
        name: input.name,
        status: 'active',
        sealedValue: cipher.sealSecret({ accountId, secretId: id, valueVersion: 1 }, input.value),
        valueVersion: 1,
        maskedValue: maskValue(input.value),
        createdAt: now,
        updatedAt: now,
      })
      .catch((err: unknown) => {
        // The unique index decides a race between two creations of the same name.
        throw isAppError(err) && err.code === 'CONFLICT' ? duplicate() : err;
      });
    await this.audited(doc, 'created', actor);
    return secretView(doc);
  }

  async list(accountId: string, query: { workspaceId?: string; search?: string }): Promise<SecretView[]> {
    const filter: Filter<VaultSecretDocument> = { accountId };
    if (query.workspaceId) filter.workspaceId = query.workspaceId;
    if (query.search) filter.name = { $regex: escapeRegex(query.search.toUpperCase()) };
    const docs = await this.deps.secrets.find(filter, {
      sort: { workspaceId: 1, name: 1 },
      limit: MAX_SECRETS_PER_ACCOUNT,
    });
    return docs.map(secretView);
  }

  async disable(accountId: string, actor: AuditActor, secretId: string): Promise<SecretView> {
    const doc = await this.managed(accountId, secretId);
    if (doc.status === 'disabled') return secretView(doc);
    const done = await this.deps.secrets.transition(doc._id, {
      from: ['active'],
      to: 'disabled',
      set: { updatedAt: this.deps.now() },
    });
    await this.deps.lifecycle.revokeWhere({ secretId: doc._id }, 'secret_disabled', actor);
    await this.audited(done, 'disabled', actor);
    return secretView(done);
  }

  async enable(accountId: string, actor: AuditActor, secretId: string): Promise<SecretView> {
    const doc = await this.managed(accountId, secretId);
    if (doc.status === 'active') return secretView(doc);
    const done = await this.deps.secrets.transition(doc._id, {
      from: ['disabled'],
      to: 'active',
      set: { updatedAt: this.deps.now() },
    });
    await this.audited(done, 'enabled', actor);
    return secretView(done);
  }

  /**
   * A new value, sealed under the next value version. Grants already issued stay valid and return
   * the value current when they are consumed.
   */
  async rotate(accountId: string, actor: AuditActor, secretId: string, value: string): Promise<SecretView> {
    assertValueSize(value);
    const doc = await this.managed(accountId, secretId);
    const valueVersion = doc.valueVersion + 1;
    const sealedValue = this.deps.cipher.sealSecret({ accountId, secretId: doc._id, valueVersion }, value);
    const done = await this.deps.secrets.updateIfVersion(doc._id, doc.version, {
      $set: { sealedValue, valueVersion, maskedValue: maskValue(value), updatedAt: this.deps.now() },
    });
    await this.audited(done, 'rotated', actor);
    return secretView(done);
  }

  /** Deletes the secret and its assignments, and revokes its active grants. */
  async remove(accountId: string, actor: AuditActor, secretId: string): Promise<SecretView> {
    const doc = await this.managed(accountId, secretId);
    await this.deps.secrets.deleteOne({ _id: doc._id, accountId });
    await this.deps.assignments.deleteMany({ secretId: doc._id });
    await this.deps.lifecycle.revokeWhere({ secretId: doc._id }, 'secret_deleted', actor);
    await this.audited(doc, 'deleted', actor);
    return secretView(doc);
  }

  async assign(accountId: string, actor: AuditActor, body: AssignmentBody): Promise<AssignmentView> {
    const secret = await this.managed(accountId, body.secretId);
    const { assignments } = this.deps;
    const duplicate = () =>
      errors.conflict(`Secret ${secret.name} is already assigned to this ${body.subjectType}`, {
        field: 'subjectId',
      });
    if (
      await assignments.findOne({
        secretId: secret._id,
        subjectType: body.subjectType,
        subjectId: body.subjectId,
      })
    ) {
      throw duplicate();
    }
    if ((await assignments.count({ accountId })) >= MAX_ASSIGNMENTS_PER_ACCOUNT) {
      throw errors.conflict(`An account holds at most ${MAX_ASSIGNMENTS_PER_ACCOUNT} assignments`);
    }
    const doc = await assignments
      .insertUnique({
        _id: newAssignmentId(),
        accountId,
        workspaceId: secret.workspaceId,
        secretId: secret._id,
        subjectType: body.subjectType,
        subjectId: body.subjectId,
        createdAt: this.deps.now(),
      })
      .catch((err: unknown) => {
        throw isAppError(err) && err.code === 'CONFLICT' ? duplicate() : err;
      });
    await this.audited(secret, 'assigned', actor, { subjectType: doc.subjectType, subjectId: doc.subjectId });
    return assignmentView(doc, secret.name);
  }

  async listAssignments(
    accountId: string,
    query: { secretId?: string; subjectType?: AssignmentBody['subjectType']; subjectId?: string },
  ): Promise<AssignmentView[]> {
    const filter: Filter<VaultAssignmentDocument> = { accountId };
    if (query.secretId) filter.secretId = query.secretId;
    if (query.subjectType) filter.subjectType = query.subjectType;
    if (query.subjectId) filter.subjectId = query.subjectId;
    const docs = await this.deps.assignments.find(filter, {
      sort: { createdAt: 1, _id: 1 },
      limit: MAX_ASSIGNMENTS_PER_ACCOUNT,
    });
    const ids = [...new Set(docs.map((d) => d.secretId))];
    const secrets = ids.length
      ? await this.deps.secrets.find({ _id: { $in: ids }, accountId }, { limit: 0 })
      : [];
    const names = new Map(secrets.map((s) => [s._id, s.name]));
    return docs.filter((d) => names.has(d.secretId)).map((d) => assignmentView(d, names.get(d.secretId)!));
  }

  /** Removes an assignment and revokes the subject's active grants of that secret. */
  async unassign(accountId: string, actor: AuditActor, body: AssignmentBody): Promise<AssignmentView> {
    const secret = await this.managed(accountId, body.secretId);
    const selector = { secretId: secret._id, subjectType: body.subjectType, subjectId: body.subjectId };
    const doc = await this.deps.assignments.findOne(selector);
    if (!doc) throw errors.notFound('Assignment not found');
    await this.deps.assignments.deleteOne({ _id: doc._id });
    await this.deps.lifecycle.revokeWhere(selector, 'unassigned', actor);
    await this.audited(secret, 'unassigned', actor, {
      subjectType: doc.subjectType,
      subjectId: doc.subjectId,
    });
    return assignmentView(doc, secret.name);
  }

  /** The secret, if the account may manage it (its workspace's owner or admin). */
  private async managed(accountId: string, secretId: string): Promise<VaultSecretDocument> {
    const doc = await this.find(accountId, secretId);
    await this.deps.workspaces.assertManage(accountId, doc.workspaceId);
    return doc;
  }

  private async audited(
    secret: VaultSecretDocument,
    event: 'created' | 'rotated' | 'disabled' | 'enabled' | 'deleted' | 'assigned' | 'unassigned',
    actor: AuditActor,
    subject: { subjectType?: VaultAssignmentDocument['subjectType']; subjectId?: string } = {},
  ): Promise<void> {
    await this.deps.audit.record({
      accountId: secret.accountId,
      workspaceId: secret.workspaceId,
      event,
      secretName: secret.name,
      secretId: secret._id,
      actor,
      ...subject,
    });
  }
}
