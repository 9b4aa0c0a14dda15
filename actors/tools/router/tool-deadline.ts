import type { ExternalToolResolver, ToolTarget } from './tool-registry';

/** Time a call may wait for its agent's turn and travel, on top of the tool's own duration, in ms. */
export const DEADLINE_SLACK_MS = 5_000;

/**
 * The deadline of one call to `target`, in ms, set by the front door before the name is resolved:
 * `baseMs` (REQUEST_TIMEOUT_MS), raised to the tool's longest duration + `DEADLINE_SLACK_MS` for
 * tools that may run longer. The longest duration is the declaration's `maxDurationMs` for a
 * built-in tool, and the resolver's `maxDurationMs` for connector and skill tools (for connectors:
 * the connector call timeout plus its margin, actors/connectors/connector-tools.ts). Never lowered
 * below `baseMs`.
 */
export function toolDeadlineMs(
  target: ToolTarget,
  baseMs: number,
  resolvers: { readonly connector?: ExternalToolResolver; readonly skill?: ExternalToolResolver },
): number {
  let max: number | undefined;
  switch (target.kind) {
    case 'platform':
      max = target.declaration.maxDurationMs;
      break;
    case 'connector':
      max = resolvers.connector?.maxDurationMs;
      break;
    case 'skill':
      max = resolvers.skill?.maxDurationMs;
      break;
  }
  return max === undefined ? baseMs : Math.max(baseMs, max + DEADLINE_SLACK_MS);
}
