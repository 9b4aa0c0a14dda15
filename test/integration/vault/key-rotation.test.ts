import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { masterKeyId } from '../../../actors/vault/sealing';
import { VaultCipher } from '../../../actors/vault/vault-cipher';
import { rekeySecrets } from '../../../actors/vault/vault-rekey';
import { secretsCollection } from '../../../actors/vault/vault.collection';
import { silentLogger } from '../../../src/logging/logger';
import { eventually } from '../../support/async';
import {
  LogCapture,
  assertNoLeaks,
  secretValue,
  startVaultHarness,
  type Account,
  type VaultHarness,
} from './support/vault-harness';

/**
 * Master key rotation (docs/vault.md, "Master key rotation"): values sealed under key 1 survive a
 * restart on key 2 with key 1 as VAULT_MASTER_KEY_PREVIOUS (consumable once, then stored under
 * key 2, by the consume itself and by the startup pass); without the previous key, a clear 503
 * that burns no grant. No value may leak anywhere.
 */
describe('vault master key rotation', () => {
  const key1 = randomBytes(32).toString('hex');
  const key2 = randomBytes(32).toString('hex');
  const id1 = masterKeyId(Buffer.from(key1, 'hex'));
  const id2 = masterKeyId(Buffer.from(key2, 'hex'));
  const jwtSecret = randomBytes(24).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-vault-rekey-'));
  const logs = new LogCapture();
  const values: string[] = [];
  let h: VaultHarness | undefined;
  let owner: Account;
  let credential: string;
  const grants: Record<string, string> = {};
  const secretIds: Record<string, string> = {};

  const start = async (env: Record<string, string>) => {
    h = await startVaultHarness({ dir, logs, env: { JWT_SECRET: jwtSecret, ...env } });
    return h;
  };
  const restart = async (env: Record<string, string>) => {
    await h?.stop();
    return start(env);
  };
  const storedSealed = async (name: string) =>
    (await h!.runtime.documents.db
      .collection<{ _id: string; sealedValue: string }>('vault_secrets')
      .findOne({ _id: secretIds[name] }))!.sealedValue;
  const grant = async (name: string) => {
    const res = await h!.grant(owner, {
      action: 'runtime',
      workspaceId: owner.workspaceId,
      secretName: name,
      subjectType: 'skill',
      subjectId: 'rekey-skill',
    });
    expect(res.status).toBe(200);
    return res.body.grant.id as string;
  };
  const consume = (grantId: string) => h!.api.consume(`Bearer ${credential}`, { grantId });

  beforeAll(async () => {
    const first = await start({ VAULT_MASTER_KEY: key1 });
    owner = await first.account();
    credential = await first.credential(owner);
    for (const name of ['ROTATED_BY_CONSUME', 'ROTATED_AT_STARTUP']) {
      const value = secretValue(name);
      values.push(value);
      const res = await first.api.post('/api/vault', owner.auth, { name, value });
      expect(res.status).toBe(201);
      secretIds[name] = res.body.secret.id as string;
      const assigned = await first.api.post('/api/vault/assignments', owner.auth, {
        secretId: secretIds[name],
        subjectType: 'skill',
        subjectId: 'rekey-skill',
      });
      expect(assigned.status).toBe(201);
      grants[name] = await grant(name);
      expect(await storedSealed(name)).toMatch(new RegExp(`^v2\\.${id1}\\.`));
    }
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    // Neither the values nor the master keys themselves appear anywhere.
    assertNoLeaks([...values, key1, key2], [logs.text()], [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without the previous key: a clear 503 naming the key id, and the grant is not burnt', async () => {
    await restart({ VAULT_MASTER_KEY: key2 });
    const res = await consume(grants.ROTATED_BY_CONSUME!);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'UNAVAILABLE',
      reason: 'vault_key_unknown',
      keyId: id1,
      error: expect.stringContaining('VAULT_MASTER_KEY_PREVIOUS'),
    });
    const grantDoc = await h!.runtime.documents.db
      .collection<{ _id: string; status: string }>('vault_grants')
      .findOne({ _id: grants.ROTATED_BY_CONSUME });
    expect(grantDoc?.status).toBe('active');
    // The startup pass could not re-seal (it says so, with ids only): the values stay under key 1.
    await eventually(() => logs.text().includes('vault: value not re-sealed'));
    expect(await storedSealed('ROTATED_BY_CONSUME')).toMatch(new RegExp(`^v2\\.${id1}\\.`));
  });

  it('with key 1 as the previous key: consumable once, then stored under key 2', async () => {
    await restart({ VAULT_MASTER_KEY: key2, VAULT_MASTER_KEY_PREVIOUS: key1 });
    // The consume re-seals it (the startup pass may also get there first: either way, under key 2).
    const first = await consume(grants.ROTATED_BY_CONSUME!);
    expect(first.status).toBe(200);
    expect(first.body.secret.value).toBe(values[0]);
    const second = await consume(grants.ROTATED_BY_CONSUME!);
    expect(second.status).toBe(403);
    expect(second.body.reason).toBe('grant_consumed');

    // The startup pass re-seals the one nobody consumed.
    for (const name of ['ROTATED_BY_CONSUME', 'ROTATED_AT_STARTUP']) {
      await eventually(async () => new RegExp(`^v2\\.${id2}\\.`).test(await storedSealed(name)));
    }
    // A further pass (as `services.vault.rekey()` runs it) finds nothing left to do.
    const cipher = new VaultCipher(Buffer.from(key2, 'hex'), [Buffer.from(key1, 'hex')]);
    const secrets = h!.runtime.documents.repository(secretsCollection);
    expect(await rekeySecrets(secrets, cipher, silentLogger)).toEqual({
      resealed: 0,
      current: 2,
      unreadable: 0,
      skipped: 0,
    });
  });

  it('after the re-sealing, key 2 alone opens every value (the previous key can be dropped)', async () => {
    await restart({ VAULT_MASTER_KEY: key2 });
    // A grant issued under key 1 before the rotation, consumed now under key 2 only.
    const res = await consume(grants.ROTATED_AT_STARTUP!);
    expect(res.status).toBe(200);
    expect(res.body.secret.value).toBe(values[1]);
    const fresh = await grant('ROTATED_BY_CONSUME');
    const again = await consume(fresh);
    expect(again.status).toBe(200);
    expect(again.body.secret.value).toBe(values[0]);
  });

  it('refuses a malformed previous key at boot, naming the variable', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-vault-badkey-'));
    try {
      await expect(
        startVaultHarness({
          dir: other,
          env: { VAULT_MASTER_KEY: key2, VAULT_MASTER_KEY_PREVIOUS: 'x'.repeat(20) },
        }),
      ).rejects.toThrow(/VAULT_MASTER_KEY_PREVIOUS/);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
