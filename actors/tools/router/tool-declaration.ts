import type { z } from 'zod';
import type { Principal } from '../../../schemas/auth';
import type { RelatedRefs } from '../../../schemas/messages/tools';
import type { BuiltinPrimitive } from '../../../schemas/tools/primitives';
import type { Services } from '../../../src/boot/services';
import type { Logger } from '../../../src/logging/logger';

/** The calling agent, as a tool sees it (from the agent actor's state: no document read per call). */
export interface ToolAgent {
  /** Internal id (`agt_…`): for namespacing and lookups only, never put it in a result. */
  readonly id: string;
  /** Public reference (`agref-…`): the one to show. */
  readonly agentRef: string;
  /** Operator account (deployed agents and accounts' default agents). */
  readonly accountId?: string;
  readonly workspaceId?: string;
  /** Outbound domain allowlist; empty = every domain (net_* tools enforce it). */
  readonly allowedDomains: readonly string[];
}

/** What a tool's `run` receives besides its input. */
export interface ToolContext {
  /** Who called (copied from the request by the front door). */
  readonly principal: Principal;
  readonly agent: ToolAgent;
  /** The process's services (cache, documents, system, sandbox, …). */
  readonly services: Services;
  /** Aborts when the caller gives up or the call's deadline passes: stop and reject promptly. */
  readonly signal: AbortSignal;
  /** The execution this call belongs to, when a workflow or the studio makes it. */
  readonly executionId?: string;
  /** Apps, workflows and skills the call is made for, when an internal caller says so. */
  readonly related?: RelatedRefs;
  readonly logger: Logger;
  /**
   * This call as its retries see it: `id` is the same on every run of it (the kernel's retry after
   * a transient error, a redelivery after a worker died, a client's retry with the same
   * Idempotency-Key), and `retriesForMs` is how long another run may come. A tool whose change a
   * second run must not repeat (an increment) keys the change on it. Absent outside an actor turn.
   */
  readonly call?: ToolCallIdentity;
  /**
   * Reports how far the call got (bytes received, …), when its caller follows it (an MCP
   * `progressToken`); absent otherwise. `progress` must grow from one report to the next.
   */
  readonly progress?: (update: ToolProgress) => void;
}

/** One progress report of a tool (MCP `notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** See `ToolContext.call`. */
export interface ToolCallIdentity {
  readonly id: string;
  readonly retriesForMs: number;
}

/**
 * One built-in tool, declared once (docs/tool-router.md, "Adding a tool"). The router validates
 * the input with `input` before `run`, lists it as `platform.<name>` with the JSON Schema of the
 * input side of `input`, authorises and counts each call, redacts the result and records the route.
 *
 * `run` resolves with a JSON value (the result) or rejects with an `AppError` (its code becomes the
 * HTTP status, or an MCP `isError` result). Anything else thrown is an INTERNAL_ERROR.
 */
export interface ToolDeclaration<S extends z.ZodObject = z.ZodObject> {
  /** Bare name, one of `BUILTIN_PRIMITIVES` (schemas/tools/primitives.ts). */
  readonly name: BuiltinPrimitive;
  /** One or two sentences for people and models: what it does and what it returns. */
  readonly description: string;
  /** Input schema: a `z.object` (MCP clients need `type: "object"`). */
  readonly input: S;
  /** Whether a call changes state (the studio previews mutating tools; MCP `readOnlyHint`). */
  readonly mutating: boolean;
  /**
   * Longest a call may take, in ms (the request's deadline is raised to cover it, plus queueing).
   * Default: the service's REQUEST_TIMEOUT_MS.
   */
  readonly maxDurationMs?: number;
  /**
   * `false`: the tool never reads `ctx.signal` (one quick cache command, e.g. `mem_get`), so the
   * router does not make the call's abort signal nor register the call for the panic button unless
   * `run` reads `ctx.signal` after all (tool-context.ts). Default: true.
   */
  readonly abortable?: boolean;
  /**
   * `true`: a call keeps a worker's CPU busy for a while (the sandbox). It is sent to the workers
   * as a message of its own instead of in a batch with other calls (docs/transport-amqp.md,
   * "Command batches"), so concurrent calls spread over the workers. Default false.
   */
  readonly heavy?: boolean;
  run(input: z.output<S>, ctx: ToolContext): unknown;
}

/** Any declaration, whatever its input schema (what the registry holds). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDeclaration = ToolDeclaration<any>;

/** Declares a tool (types `run`'s input from the schema). */
export function defineTool<S extends z.ZodObject>(declaration: ToolDeclaration<S>): ToolDeclaration<S> {
  return Object.freeze({ ...declaration });
}
