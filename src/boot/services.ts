import type { AppsService } from '../../actors/apps/apps.service';
import type { ConnectorsService } from '../../actors/connectors/connectors';
import type { ExecutionsService } from '../../actors/executions/executions';
import type { FilesApi } from '../../actors/files/files-api.service';
import type { FileStore } from '../../actors/files/file-store';
import type { IdentityOptions } from '../../actors/identity/identity-options';
import type { TokenService } from '../../actors/identity/token-service';
import type { MemoryApi } from '../../actors/memory/memory';
import type { SkillsService } from '../../actors/skills/skills.service';
import type { SocialService } from '../../actors/social/social.service';
import type { CrewService } from '../../actors/operations/crew.service';
import type { ServiceMetrics } from '../../actors/operations/metrics';
import type { StudioEnv } from '../../actors/studio/studio';
import type { PrivateDatabases } from '../../actors/tools/db';
import type { HttpEgress } from '../../actors/tools/net/http-egress';
import type { ToolRouter } from '../../actors/tools/router/tool-router';
import type { VaultService } from '../../actors/vault/vault';
import type { InvitationsApi, WorkspacesApi } from '../../actors/workspaces/workspaces';
import type { Config } from '../config/load-config';
import type { Secrets } from '../config/secrets';
import type { ActorSystem } from '../kernel';
import type { Logger } from '../logging/logger';
import type { Sandbox } from '../sandbox';
import type { CachePort } from '../store/cache';
import type { DocumentStore } from '../store/mongo';
import type { WorkAborter } from './work-aborter';

/**
 * The services of one process: every field is built once by `startRuntime` (in the order of
 * `buildServices`, src/boot/build-services.ts) and closed on its shutdown stack. They are handed
 * to the actor factories and route modules of `actors/registry.ts`; nothing builds its own, and
 * nothing adds fields from elsewhere (this interface is the whole list).
 *
 * Domain code names this type (`import type`) to receive it; only `src/boot` builds it.
 */
export interface Services {
  // Plumbing.
  readonly config: Config;
  readonly secrets: Secrets;
  readonly logger: Logger;
  readonly documents: DocumentStore;
  readonly cache: CachePort;
  readonly system: ActorSystem;
  /** Tool calls in flight and their cancellation (the panic button): `work.abortAll(reason, filter)`. */
  readonly work: WorkAborter;
  /** Runs `proc_execute` code (QuickJS in Piscina, SANDBOX_THREADS); started on first use. Workers only. */
  readonly sandbox?: Sandbox;
  /** Outbound HTTP and DNS of the `net_*` tools (ALLOW_LOOPBACK_HTTP); created on first use. Workers only. */
  readonly netEgress?: HttpEgress;
  /** The agents' private SQL databases (`db_*` tools); opened on first use. Workers only. */
  readonly privateDatabases?: PrivateDatabases;

  // Domains.
  /** Issues, verifies and revokes bearer tokens (JWT_SECRET; revocations in the cache). */
  readonly tokens: TokenService;
  /** Tuning of accounts, sessions and their limits (empty = defaults; actors/identity/identity-options.ts). */
  readonly identity: IdentityOptions;
  /** The tool router: registry, limiter, panic gate, route records, external tool resolvers. */
  readonly toolRouter: ToolRouter;
  /** MCP connectors: session pool and the router's connector resolver. */
  readonly connectors: ConnectorsService;
  /** The secret vault: cipher, runtime credentials, grant lifecycle. */
  readonly vault: VaultService;
  /** Workspaces and the membership decision files, memory, executions and the vault share. */
  readonly workspaces: WorkspacesApi;
  /** The invitee's side of workspace invitations (`/api/workspace-invitations`). */
  readonly invitations: InvitationsApi;
  /** Executions: state machine store, step runners and undoers, live events, panic. */
  readonly executions: ExecutionsService;
  /** The governed file store (versions, rollback); `filesApi` is `/api/files` over it. */
  readonly files: FileStore;
  readonly filesApi: FilesApi;
  /** Governed memory (`/api/memory`). */
  readonly memory: MemoryApi;
  /** What the Studio's commands and chat need (tool listings, connectors). */
  readonly studio: StudioEnv;
  /** The skill store: catalog, installations, uses (SKILL_EXECUTION), skill tools, developer profiles. */
  readonly skills: SkillsService;
  /** This process in the crew: heartbeat, active/standby per feature, the background duties. */
  readonly crew: CrewService;
  /** This process's metrics: Prometheus series (`GET /metrics`) and the last hour's counts. */
  readonly metrics: ServiceMetrics;
  /** The app store: catalog with kept versions, installations and readiness, the vault's app check. */
  readonly apps: AppsService;
  /** The optional social connector (X accounts, drafts, the publishing queue); absent when SOCIAL_ENABLED=false. */
  readonly social?: SocialService;
}
