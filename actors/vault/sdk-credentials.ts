import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountDocument } from '../../schemas/documents/account';
import type { SdkCredentialDocument } from '../../schemas/documents/vault';
import { errors } from '../../schemas/errors';
import type { RuntimeAuth } from '../../schemas/messages/vault';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import { capabilityRequired, planHas } from '../identity/plans';

/** The plan capability that lets an account mint and use runtime credentials. */
export const SDK_CAPABILITY = 'access_sdk';

/** `sdk_<24 hex: the id>_<64 hex: 256 random bits>`. */
const VALUE_PATTERN = /^sdk_([0-9a-f]{24})_([0-9a-f]{64})$/;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** A hash no secret has: the comparison still runs for an unknown id (same timing). */
const NO_HASH = Buffer.alloc(32);

/** A new runtime credential: its public id, the value to reveal once, and what is stored. */
export function mintCredential(): { id: string; value: string; secretHash: string; maskedValue: string } {
  const idHex = randomBytes(12).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const value = `sdk_${idHex}_${secret}`;
  return {
    id: `sdc_${idHex}`,
    value,
    secretHash: sha256(secret).toString('hex'),
    maskedValue: `${value.slice(0, 8)}...${value.slice(-6)}`,
  };
}

/** Whether a bearer value has the shape of a runtime credential (`sdk_…`). */
export function looksLikeRuntimeCredential(value: string): boolean {
  return value.startsWith('sdk_');
}

/**
 * Verifies runtime credentials for the consume route (the front door): the id embedded in the
 * value finds the document, the sha256 of the secret part is compared in constant time, then the
 * status, the expiry and the account's plan (`access_sdk`: a downgrade stops its credentials).
 */
export class RuntimeCredentials {
  constructor(
    private readonly repo: Repository<SdkCredentialDocument>,
    private readonly accounts: Repository<AccountDocument>,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  async verify(value: string): Promise<RuntimeAuth> {
    const match = VALUE_PATTERN.exec(value);
    if (!match) throw errors.unauthorized('Invalid runtime credential');
    const doc = await this.repo.findById(`sdc_${match[1]}`);
    const expected = doc ? Buffer.from(doc.secretHash, 'hex') : NO_HASH;
    const same = timingSafeEqual(sha256(match[2]), expected);
    if (!doc || !same) throw errors.unauthorized('Invalid runtime credential');
    if (doc.status !== 'active') throw errors.unauthorized('Runtime credential revoked');
    const now = this.now();
    if (doc.expiresAt && doc.expiresAt.getTime() <= now.getTime()) {
      throw errors.unauthorized('Runtime credential expired');
    }
    const account = await this.accounts.findById(doc.accountId);
    if (!account || !planHas(account.plan, SDK_CAPABILITY)) {
      throw errors.forbidden(capabilityRequired(SDK_CAPABILITY));
    }
    // Usage statistics: `$max` commutes (no version, no conflict); not awaited by the request.
    void this.repo.updateOne({ _id: doc._id }, { $max: { lastUsedAt: now } }).catch((err: unknown) => {
      this.logger.warn({ err, credentialId: doc._id }, 'vault: lastUsedAt not written');
    });
    return {
      subjectType: 'runtime',
      via: 'runtime_credential',
      accountId: doc.accountId,
      credentialId: doc._id,
      scopes: doc.scopes,
      ...(doc.workspaceId ? { workspaceId: doc.workspaceId } : {}),
    };
  }
}
