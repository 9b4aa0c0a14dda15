import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './load-config';

/** The service's own secrets, resolved once at boot. Never logged, never returned. */
export interface Secrets {
  readonly jwtSecret: string;
  /** 32 bytes for AES-256-GCM. */
  readonly vaultMasterKey: Buffer;
  /** VAULT_MASTER_KEY_PREVIOUS: master keys used before `vaultMasterKey`, newest first (rotation). */
  readonly vaultPreviousMasterKeys?: readonly Buffer[];
  readonly adminToken: string;
  readonly cronSecret: string;
}

const FILE_NAME = 'secrets.json';

/**
 * Takes each secret from the configuration; one that is unset is generated once and kept in
 * `DATA_DIR/secrets.json` (mode 0600) so that tokens and encrypted values survive restarts.
 * Several processes sharing one DATA_DIR read the same file. In a deployment with real services
 * the secrets should come from the environment; the file is the embedded convenience.
 */
export function resolveSecrets(config: Config): Secrets {
  const file = path.join(config.DATA_DIR, FILE_NAME);
  let stored: Record<string, string> = {};
  const missing =
    !config.JWT_SECRET || !config.VAULT_MASTER_KEY || !config.ADMIN_TOKEN || !config.CRON_SECRET;
  if (missing) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    if (fs.existsSync(file)) {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    }
    let changed = false;
    for (const key of ['JWT_SECRET', 'VAULT_MASTER_KEY', 'ADMIN_TOKEN', 'CRON_SECRET']) {
      if (!stored[key]) {
        stored[key] = randomBytes(32).toString('hex');
        changed = true;
      }
    }
    if (changed) {
      // Write-then-rename so a crash never leaves a half-written secrets file.
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
      fs.renameSync(tmp, file);
    }
  }
  return Object.freeze({
    jwtSecret: config.JWT_SECRET ?? stored.JWT_SECRET,
    vaultMasterKey: decodeKey(config.VAULT_MASTER_KEY ?? stored.VAULT_MASTER_KEY),
    vaultPreviousMasterKeys: Object.freeze(
      (config.VAULT_MASTER_KEY_PREVIOUS ?? []).map((key) => decodeKey(key, 'VAULT_MASTER_KEY_PREVIOUS')),
    ),
    adminToken: config.ADMIN_TOKEN ?? stored.ADMIN_TOKEN,
    cronSecret: config.CRON_SECRET ?? stored.CRON_SECRET,
  });
}

/** 64 hex characters or base64 of 32 bytes; anything else is refused (a weak key must not pass silently). */
function decodeKey(value: string, name = 'VAULT_MASTER_KEY'): Buffer {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const b64 = Buffer.from(value, 'base64');
  if (b64.length === 32) return b64;
  throw new Error(`${name}: must be 32 bytes as 64 hex characters or base64`);
}
