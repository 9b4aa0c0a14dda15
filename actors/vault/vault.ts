import { z } from 'zod';
import { panicFlagKey, WORKSPACE_PANIC_BROADCAST } from '../../schemas/messages/tools';
import type { Services } from '../../src/boot/services';
import type { Secrets } from '../../src/config/secrets';
import type { ActorSystemApi } from '../../src/kernel';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import type { Logger } from '../../src/logging/logger';
import type { DocumentStore } from '../../src/store/mongo';
import { accountsCollection } from '../identity/accounts.collection';
import { defaultWorkspaceOf } from '../workspaces/default-workspace';
import { agentsCollection } from '../identity/agents.collection';
import { InstallationPermissionChecker, type AppPermissionChecker } from './app-permissions';
import { GrantLifecycle } from './grant-lifecycle';
import { RuntimeCredentials } from './sdk-credentials';
import { sdkCredentialsActor } from './sdk-credentials.actor';
import { VaultAccess } from './vault-access';
import { systemActor, VaultAuditLog } from './vault-audit';
import { VaultCipher } from './vault-cipher';
import { loggedRekeyPass, rekeySecrets, type RekeyReport } from './vault-rekey';
import { vaultGrantActor } from './vault-grant.actor';
import { VaultSecrets } from './vault-secrets';
import { VaultWorkspaces } from './vault-workspaces';
import { vaultActor } from './vault.actor';
import {
  assignmentsCollection,
  auditCollection,
  credentialsCollection,
  grantsCollection,
  secretsCollection,
} from './vault.collection';

export { vaultCollections } from './vault.collection';

/**
 * What the vault reads of a `workspace.panic` broadcast: a workspace-wide panic (no `sessionId`)
 * that is not being lifted (`active: false`) revokes the workspace's grants. A session's panic
 * does not: grants belong to the workspace, not to a session.
 */
const PanicSchema = z.object({
  workspaceId: z.string().min(1),
  active: z.boolean().optional(),
  sessionId: z.string().optional(),
});

/** Tuning of the vault beyond the configuration (tests, deployments wiring the app store). */
export interface VaultOptions {
  /**
   * The clock of grants, credentials and the audit log. Default `() => new Date()`. Tests move it
   * forward to expire grants without waiting (the 30 s minimum lifetime stays).
   */
  now?: () => Date;
  /** Whether an app may receive a secret. Default: `InstallationPermissionChecker` (app-permissions.ts). */
  appPermissions?: AppPermissionChecker;
  /** How often each worker sweeps active grants past their expiry, ms. Default 30000; 0 = never. */
  sweepIntervalMs?: number;
}

/**
 * The vault of this process (docs/vault.md): the cipher (front door and actors), runtime
 * credential verification (front door), and on nodes hosting actors the sweep of expired grants
 * and the `workspace.panic` listener. Created by `startRuntime`, closed at stop.
 */
export interface VaultService {
  readonly cipher: VaultCipher;
  readonly credentials: RuntimeCredentials;
  readonly appPermissions: AppPermissionChecker;
  readonly lifecycle: GrantLifecycle;
  readonly now: () => Date;
  /** One sweep pass now (also run on a timer); resolves how many grants it expired. */
  sweep(): Promise<number>;
  /**
   * Re-seals every stored value not under the current master key (docs/vault.md, "Master key
   * rotation"). Also run once in the background at startup on nodes hosting actors.
   */
  rekey(): Promise<RekeyReport>;
  /** The startup re-sealing pass (nodes hosting actors; resolves at once elsewhere). */
  readonly startupRekey: Promise<RekeyReport | undefined>;
  close(): Promise<void>;
}

export interface VaultServiceDeps {
  documents: DocumentStore;
  system: ActorSystemApi;
  secrets: Secrets;
  logger: Logger;
  /** This node hosts actors: it sweeps and listens to panics. */
  hostsActors: boolean;
}

export function createVaultService(deps: VaultServiceDeps, options: VaultOptions = {}): VaultService {
  const now = options.now ?? (() => new Date());
  const logger = deps.logger.child({ component: 'vault' });
  const cipher = new VaultCipher(deps.secrets.vaultMasterKey, deps.secrets.vaultPreviousMasterKeys ?? []);
  const audit = new VaultAuditLog(deps.documents.repository(auditCollection), now);
  const lifecycle = new GrantLifecycle(deps.documents.repository(grantsCollection), audit, now, logger);
  const credentials = new RuntimeCredentials(
    deps.documents.repository(credentialsCollection),
    deps.documents.repository(accountsCollection),
    now,
    logger,
  );
  const appPermissions = options.appPermissions ?? new InstallationPermissionChecker(deps.documents.db);

  let sweeping: Promise<number> | undefined;
  const sweep = () =>
    (sweeping ??= lifecycle.sweepExpired().finally(() => {
      sweeping = undefined;
    }));

  const rekey = () => rekeySecrets(deps.documents.repository(secretsCollection), cipher, logger);
  let startupRekey: Promise<RekeyReport | undefined> = Promise.resolve(undefined);

  const offs: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  if (deps.hostsActors) {
    // Values under a previous master key (or from before key ids) move to the current one.
    startupRekey = loggedRekeyPass(rekey(), logger, 'vault', cipher.keyId, 'consumed');
    // Every node hosting actors hears a panic; the conditional bulk write changes each grant once.
    offs.push(
      deps.system.onBroadcast(WORKSPACE_PANIC_BROADCAST, (body) => {
        const parsed = PanicSchema.safeParse(body);
        if (!parsed.success || parsed.data.active === false || parsed.data.sessionId) return;
        const { workspaceId } = parsed.data;
        lifecycle.revokeWhere({ workspaceId }, 'panic', systemActor('panic')).then(
          (revoked) => {
            if (revoked > 0) logger.info({ workspaceId, revoked }, 'vault: grants revoked by panic');
          },
          (err: unknown) => logger.error({ err, workspaceId }, 'vault: panic revocation failed'),
        );
      }),
    );
    const every = options.sweepIntervalMs ?? 30_000;
    if (every > 0) {
      timer = setInterval(() => {
        sweep().catch((err: unknown) => logger.warn({ err }, 'vault: sweep failed'));
      }, every);
      timer.unref();
    }
  }

  return {
    cipher,
    credentials,
    appPermissions,
    lifecycle,
    now,
    sweep,
    rekey,
    startupRekey,
    close: async () => {
      for (const off of offs) off();
      if (timer) clearInterval(timer);
      await sweeping?.catch(() => undefined);
      await startupRekey;
    },
  };
}

/** The vault actors (`vault`, `vault-grant`, `sdk-credentials`), from the services. */
export function vaultActors(services: Services): AnyActorDefinition[] {
  const vault = services.vault;
  if (!vault) return [];
  const { documents, cache } = services;
  const now = vault.now;
  const secretsRepo = documents.repository(secretsCollection);
  const assignmentsRepo = documents.repository(assignmentsCollection);
  const grantsRepo = documents.repository(grantsCollection);
  const accounts = documents.repository(accountsCollection);
  const agents = documents.repository(agentsCollection);
  const workspaces = new VaultWorkspaces(services.workspaces.membership, accounts, (accountId) =>
    defaultWorkspaceOf(services, accountId),
  );
  const audit = new VaultAuditLog(documents.repository(auditCollection), now);
  const lifecycle = vault.lifecycle;
  return [
    vaultActor({
      secrets: new VaultSecrets({
        secrets: secretsRepo,
        assignments: assignmentsRepo,
        workspaces,
        cipher: vault.cipher,
        audit,
        lifecycle,
        now,
      }),
      access: new VaultAccess({
        secrets: secretsRepo,
        assignments: assignmentsRepo,
        grants: grantsRepo,
        workspaces,
        audit,
        appPermissions: vault.appPermissions,
        // The flag the panic route sets (schemas/messages/tools.ts); a cache outage refuses (503).
        isPanicLocked: async (workspaceId) => (await cache.get(panicFlagKey(workspaceId))) !== null,
        now,
      }),
      audit,
      cipher: vault.cipher,
      agentRefOf: async (agentId) => (await agents.findById(agentId))?.agentRef,
    }),
    vaultGrantActor({
      grants: grantsRepo,
      secrets: secretsRepo,
      cipher: vault.cipher,
      lifecycle,
      now,
      logger: services.logger.child({ component: 'vault' }),
    }),
    sdkCredentialsActor({
      repo: documents.repository(credentialsCollection),
      accounts,
      workspaces,
      cipher: vault.cipher,
      now,
    }),
  ];
}
