import { panicFlagKey, WORKSPACE_PANIC_BROADCAST } from '../../schemas/messages/tools';
import { WorkspacePanicEventSchema, type WorkspacePanicEvent } from '../../schemas/messages/executions';
import { AppError, errors } from '../../schemas/errors';
import type { Services } from '../../src/boot/services';
import { NotificationsRepo } from '../notifications/notifications.repo';
import { demoStepsRunner } from './demo-steps.runner';
import { registerBuiltInUndoers } from './effect-undoers';
import { ExecutionHub } from './execution-hub';
import {
  DEFAULT_LEASE_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  ExecutionSweeper,
  StepLeases,
} from './execution-leases';
import { StepWork } from './execution-steps';
import { ExecutionStore } from './execution-store';
import { executionWorkspaces, type ExecutionWorkspaces } from './execution-workspaces';
import { ExecutionLogs, ExecutionQueries } from './executions.repo';
import { executionLogsCollection, executionsCollection } from './executions.collection';
import { EffectUndoers, StepRunners } from './step-runners';

/**
 * The executions machinery of one process (docs/executions.md), shared by the actors of this
 * node and the routes: `services.executions`, built once by `startRuntime`. Other domains plug in here:
 * `runners.register(stepRunner)` (a new execution type) and `undoers.register(effectUndoer)` (a
 * new effect kind for rollback).
 */
export interface ExecutionsService {
  readonly services: Services;
  readonly runners: StepRunners;
  readonly undoers: EffectUndoers;
  /** Live events (`watch`) and their broadcast (`publish`). */
  readonly hub: ExecutionHub;
  /** Conditional writes of the state machine (`mutate`) and their log lines, events, notifications. */
  readonly store: ExecutionStore;
  /** Execution logs: `append(executionId, [{level, message}])`, `tail`, `after(seq)`. */
  readonly logs: ExecutionLogs;
  /** Reads for the routes (tenant-checked). */
  readonly queries: ExecutionQueries;
  readonly notifications: NotificationsRepo;
  /** Steps in flight on this node (panic aborts them). */
  readonly steps: StepWork;
  /** The leases of the steps this node runs (renewed while they run). */
  readonly leases: StepLeases;
  /** Fails the executions whose step's lease lapsed (`start()` on nodes hosting the actors). */
  readonly sweeper: ExecutionSweeper;
  /** How often this node sweeps, in ms (EXECUTION_SWEEP_INTERVAL_MS; 0 = never). */
  readonly sweepIntervalMs: number;
  readonly workspaces: ExecutionWorkspaces;
  /** Whether the workspace is in panic lockdown (no new work starts there: 403). */
  assertNotLockedDown(workspaceId: string): Promise<void>;
  /** Applies a panic on this node (also run on every node by the `workspace.panic` broadcast). */
  onPanic(event: WorkspacePanicEvent): void;
  /**
   * Aborts the step in flight of one execution, wherever it runs (broadcast), as panic does: for a
   * cancel that must not wait for the step to finish (an MCP task's `tasks/cancel`).
   */
  abortStep(executionId: string, reason: AppError): Promise<void>;
  close(): void;
}

/** `{executionId, code, message}`: abort that execution's step in flight on every node. */
export const EXECUTION_ABORT_BROADCAST = 'execution.abortStep';

/** The reason the steps and tool calls stopped by panic carry. */
export const panicError = () =>
  new AppError('UNAVAILABLE', 'Stopped by panic', { reason: 'panic' }, { retryable: false });

export function createExecutionsService(services: Services): ExecutionsService {
  const logger = services.logger.child({ component: 'executions' });
  const repo = services.documents.repository(executionsCollection);
  const hub = new ExecutionHub(services.system, logger);
  const logs = new ExecutionLogs(services.documents.repository(executionLogsCollection), repo, hub);
  const notifications = new NotificationsRepo(services.documents);
  const store = new ExecutionStore(repo, logs, hub, notifications, logger);
  const steps = new StepWork(services.work);
  const config = services.config as Partial<typeof services.config> | undefined;
  const leases = new StepLeases(
    repo,
    config?.EXECUTION_LEASE_MS ?? DEFAULT_LEASE_MS,
    services.system,
    logger,
  );
  const sweeper = new ExecutionSweeper(store, services.system, logger);
  const runners = new StepRunners().register(demoStepsRunner);
  const undoers = new EffectUndoers();
  registerBuiltInUndoers(undoers);

  const onPanic = (event: WorkspacePanicEvent) => {
    if (event.active === false) return; // lifted
    const ids = event.executionIds ?? [];
    steps.abort(ids, panicError(), event.at);
    for (const id of ids) hub.end(id, { error: 'Stopped by panic', code: 'PANIC' }, 'CANCELLED');
    // Workspace-wide: every tool call, HTTP call and connector call of the workspace on this node.
    if (!event.sessionId) services.work?.abortAll('panic', { workspaceId: event.workspaceId });
  };
  const off = services.system.onBroadcast(WORKSPACE_PANIC_BROADCAST, (body) => {
    const parsed = WorkspacePanicEventSchema.safeParse(body);
    if (parsed.success) onPanic(parsed.data);
  });
  const offAbort = services.system.onBroadcast(EXECUTION_ABORT_BROADCAST, (body) => {
    const b = body as { executionId?: unknown; code?: unknown; message?: unknown } | undefined;
    if (typeof b?.executionId !== 'string' || typeof b.message !== 'string') return;
    const code = b.code === 'DEADLINE_EXCEEDED' ? 'DEADLINE_EXCEEDED' : 'UNAVAILABLE';
    steps.abort([b.executionId], new AppError(code, b.message.slice(0, 500), { reason: 'cancelled' }));
  });

  return {
    services,
    runners,
    undoers,
    hub,
    store,
    logs,
    queries: new ExecutionQueries(repo, logs),
    notifications,
    steps,
    leases,
    sweeper,
    sweepIntervalMs: config?.EXECUTION_SWEEP_INTERVAL_MS ?? DEFAULT_SWEEP_INTERVAL_MS,
    workspaces: executionWorkspaces(services),
    assertNotLockedDown: async (workspaceId) => {
      if ((await services.cache.get(panicFlagKey(workspaceId))) !== null) {
        throw errors.forbidden('The workspace is in panic lockdown: no work starts until it is lifted', {
          workspaceId,
        });
      }
    },
    onPanic,
    abortStep: async (executionId, reason) => {
      const body = { executionId, code: reason.code, message: reason.message };
      steps.abort([executionId], reason);
      await services.system.broadcast(EXECUTION_ABORT_BROADCAST, body);
    },
    close: () => {
      off();
      offAbort();
      sweeper.stop();
      hub.close();
    },
  };
}
