import { randomBytes } from 'node:crypto';
import type { Filter } from 'mongodb';
import type { AuditActor, RevokeReason, VaultGrantDocument } from '../../schemas/documents/vault';
import { isAppError } from '../../schemas/errors';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import type { Logger } from '../../src/logging/logger';
import { systemActor, type VaultAuditLog } from './vault-audit';

/** What a bulk revocation may select, besides `status: 'active'`. */
export interface GrantSelector {
  workspaceId?: string;
  secretId?: string;
  subjectType?: string;
  subjectId?: string;
}

/** Most grants one sweep pass expires (the next pass takes the rest). */
const SWEEP_BATCH = 500;

/**
 * The moves of grants that are not a runtime's consume or cleanup: expiry and bulk revocation
 * (panic, a disabled or deleted secret, a removed assignment). Every move is conditional on
 * `status: 'active'`, so it never undoes a consume, and of two nodes doing the same move each
 * grant is changed (and audited) once.
 */
export class GrantLifecycle {
  constructor(
    private readonly grants: Repository<VaultGrantDocument>,
    private readonly audit: VaultAuditLog,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  /**
   * Revokes every active grant `selector` matches with one conditional `updateMany`, then audits
   * exactly the grants this call changed (found by a mark unique to the call). Resolves how many.
   */
  async revokeWhere(selector: GrantSelector, reason: RevokeReason, actor: AuditActor): Promise<number> {
    const mark = `rvk_${randomBytes(12).toString('hex')}`;
    const at = this.now();
    let modified: number;
    try {
      const res = await this.grants.raw.updateMany(
        { ...selector, status: 'active' } as Filter<VaultGrantDocument>,
        {
          $set: { status: 'revoked', revokedAt: at, revokedReason: reason, revokeMark: mark },
          $inc: { version: 1 },
        },
      );
      modified = res.modifiedCount;
    } catch (err) {
      throw mapMongoError(err, { collection: this.grants.name, op: 'updateMany' });
    }
    if (modified === 0) return 0;
    const changed = await this.grants.find({ revokeMark: mark }, { limit: 0 });
    for (const grant of changed) {
      await this.record(grant, 'revoked', actor, reason);
    }
    return modified;
  }

  /** Marks one active grant past its expiry `expired` (and audits it); false when it was not active. */
  async expire(grant: VaultGrantDocument): Promise<boolean> {
    try {
      const done = await this.grants.transition(grant._id, {
        from: ['active'],
        to: 'expired',
        set: { expiredAt: this.now() },
      });
      await this.record(done, 'expired', systemActor('expiry'));
      return true;
    } catch (err) {
      if (isAppError(err) && (err.code === 'CONFLICT' || err.code === 'NOT_FOUND')) return false;
      throw err;
    }
  }

  /**
   * One pass of the sweep: active grants past `expiresAt` become `expired`. Consume refuses them
   * anyway (it checks the time); the sweep makes the state and the audit log say so. Resolves how
   * many this pass expired.
   */
  async sweepExpired(): Promise<number> {
    const due = await this.grants.find(
      { status: 'active', expiresAt: { $lte: this.now() } },
      { sort: { expiresAt: 1 }, limit: SWEEP_BATCH },
    );
    let expired = 0;
    for (const grant of due) if (await this.expire(grant)) expired += 1;
    return expired;
  }

  /** Audits a grant's move; a failure is logged (ids only), never allowed to undo the move. */
  async record(
    grant: VaultGrantDocument,
    event: 'consumed' | 'cleaned' | 'revoked' | 'expired' | 'denied',
    actor: AuditActor,
    reason?: string,
  ): Promise<void> {
    try {
      await this.audit.record({
        accountId: grant.accountId,
        workspaceId: grant.workspaceId,
        event,
        secretName: grant.secretName,
        secretId: grant.secretId,
        grantId: grant._id,
        subjectType: grant.subjectType,
        subjectId: grant.subjectId,
        actor,
        ...(reason ? { reason } : {}),
      });
    } catch (err) {
      this.logger.warn({ err, grantId: grant._id, event }, 'vault: audit entry not written');
    }
  }
}
