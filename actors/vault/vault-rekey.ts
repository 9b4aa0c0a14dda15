import type { Filter } from 'mongodb';
import type { VaultSecretDocument } from '../../schemas/documents/vault';
import { isAppError } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import { pagesById } from '../../src/store/mongo/pages-by-id';
import type { VaultCipher } from './vault-cipher';

/** What a re-sealing pass did (counts only: never a value, never an account id). */
export interface RekeyReport {
  /** Values re-sealed under the current master key by this pass. */
  resealed: number;
  /** Values already under the current key. */
  current: number;
  /** Values under a key this process does not hold (left as they are; consumes answer 503). */
  unreadable: number;
  /** Values changed by someone else meanwhile (a rotation, another node's pass): left to them. */
  skipped: number;
}

const PAGE = 200;

/**
 * Stores `resealed` in place of `previous` if the document still holds `previous`: a conditional
 * write, so a concurrent rotation (a new value) or another node's pass is never overwritten. The
 * secret's `version` is left alone: the value did not change, only its envelope.
 */
export async function storeResealed(
  secrets: Repository<VaultSecretDocument>,
  secretId: string,
  previous: string,
  resealed: string,
): Promise<boolean> {
  const res = await secrets.updateOne(
    { _id: secretId, sealedValue: previous } as Filter<VaultSecretDocument>,
    {
      $set: { sealedValue: resealed },
    },
  );
  return res.modified > 0;
}

/**
 * Re-seals every stored secret value that is not under the current master key (docs/vault.md,
 * "Master key rotation"). Run by each node hosting actors at startup, and available as
 * `services.vault.rekey()`. Idempotent; safe on several nodes at once.
 */
export async function rekeySecrets(
  secrets: Repository<VaultSecretDocument>,
  cipher: VaultCipher,
  logger: Logger,
): Promise<RekeyReport> {
  const report: RekeyReport = { resealed: 0, current: 0, unreadable: 0, skipped: 0 };
  for await (const page of pagesById(secrets, PAGE)) {
    for (const doc of page) {
      if (cipher.isCurrent(doc.sealedValue)) {
        report.current++;
        continue;
      }
      try {
        const { resealed } = cipher.openSecretForUse(
          { accountId: doc.accountId, secretId: doc._id, valueVersion: doc.valueVersion },
          doc.sealedValue,
        );
        if (resealed && (await storeResealed(secrets, doc._id, doc.sealedValue, resealed))) report.resealed++;
        else report.skipped++;
      } catch (err) {
        if (!isAppError(err)) throw err;
        report.unreadable++;
        // Ids and the error's own message only (it never holds a value).
        logger.warn(
          { secretId: doc._id, reason: err.details.reason, keyId: err.details.keyId },
          'vault: value not re-sealed',
        );
      }
    }
  }
  return report;
}

/**
 * A startup re-sealing pass with its outcome logged: one line when it re-sealed or met something,
 * a warning when it failed (it resolves `undefined` then: values are still re-sealed lazily, when
 * `lazily` happens to them). Shared by the vault's and the connectors' passes.
 */
export function loggedRekeyPass<R extends Pick<RekeyReport, 'resealed' | 'unreadable'>>(
  pass: Promise<R>,
  logger: Logger,
  what: 'vault' | 'connectors',
  keyId: string,
  lazily: string,
): Promise<R | undefined> {
  return pass.then(
    (report) => {
      if (report.resealed > 0 || report.unreadable > 0) {
        const fields: Record<string, unknown> = { ...report, keyId };
        logger.info(fields, `${what}: stored values re-sealed under the current master key`);
      }
      return report;
    },
    (err: unknown) => {
      logger.warn({ err }, `${what}: re-sealing pass failed (values are re-sealed when ${lazily})`);
      return undefined;
    },
  );
}
