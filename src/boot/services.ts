import type { Config } from '../config/load-config';
import type { Secrets } from '../config/secrets';
import type { ActorSystem } from '../kernel';
import type { Logger } from '../logging/logger';
import type { TokenService } from '../../actors/identity/token-service';
import type { CachePort } from '../store/cache';
import type { DocumentStore } from '../store/mongo';
import type { Sandbox } from '../sandbox';
import type { PrivateDatabases } from '../../actors/tools/db';
import type { HttpEgress } from '../../actors/tools/net/http-egress';
import type { WorkAborter } from './work-aborter';

/**
 * The services of one process, created once by `startRuntime` and handed to actor factories
 * (`actors/registry.ts`) and route modules (`deps.services`). Nothing builds its own.
 */
export interface Services {
  readonly config: Config;
  readonly secrets: Secrets;
  readonly logger: Logger;
  readonly documents: DocumentStore;
  readonly cache: CachePort;
  readonly system: ActorSystem;
  /** Issues, verifies and revokes bearer tokens (JWT_SECRET; revocations in the cache). */
  readonly tokens: TokenService;
  /** Runs `proc_execute` code (QuickJS in Piscina, SANDBOX_THREADS); started on first use. Workers only. */
  readonly sandbox?: Sandbox;
  /** Outbound HTTP and DNS of the `net_*` tools (ALLOW_LOOPBACK_HTTP); created on first use. Workers only. */
  readonly netEgress?: HttpEgress;
  /** The agents' private SQL databases (`db_*` tools); opened on first use. Workers only. */
  readonly privateDatabases?: PrivateDatabases;
  /** Tool calls in flight and their cancellation (the panic button): `work.abortAll(reason, filter)`. */
  readonly work?: WorkAborter;
}

declare module '../http/app.types' {
  interface AppDeps {
    /** The process's services; absent only in front-door unit tests that need none. */
    services?: Services;
  }
}
