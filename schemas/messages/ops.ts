import { z } from 'zod';

/**
 * State of one dependency, as the node answering the health check sees it. `unknown` = it could
 * not be checked (the health actor did not answer).
 */
export const DependencyHealthSchema = z.object({
  state: z.enum(['up', 'connecting', 'down', 'unknown']),
  /** True when the embedded default is in use (no external service configured). */
  embedded: z.boolean().optional(),
  /** Human-readable detail, never a secret (URLs without credentials). */
  detail: z.string().optional(),
  /** How long the check took, in ms. */
  latencyMs: z.number().nonnegative().optional(),
});

export type DependencyHealth = z.infer<typeof DependencyHealthSchema>;

/** `ops.health` to `ops:health`: no parameters. */
export const OpsHealthRequestSchema = z.object({});

/** Reply of `ops:health` to `ops.health`. */
export const OpsHealthReplySchema = z.object({
  /** `ok` when every dependency is up, `degraded` otherwise. */
  status: z.enum(['ok', 'degraded']),
  dependencies: z.object({
    transport: DependencyHealthSchema,
    documents: DependencyHealthSchema,
    cache: DependencyHealthSchema,
  }),
});

export type OpsHealthReply = z.infer<typeof OpsHealthReplySchema>;
