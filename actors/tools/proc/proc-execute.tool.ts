import { errors } from '../../../schemas/errors';
import { PROC_EXECUTE_LIMITS, ProcExecuteInputSchema } from '../../../schemas/tools/proc-execute';
import { defineTool } from '../router/tool-declaration';

/** Queueing for a sandbox worker and the kill grace, on top of the script's own timeout. */
const SANDBOX_SLACK_MS = 5_000;

/**
 * `proc_execute`: runs JavaScript in the process's sandbox (QuickJS in a Piscina pool,
 * docs/sandbox.md). The result is the sandbox's `{stdout, stderr, exitCode, durationMs, truncated,
 * outcome, result?}` whatever the script did (a failing script is a result with exitCode != 0).
 */
export const procExecuteTool = defineTool({
  name: 'proc_execute',
  heavy: true,
  description:
    'Runs JavaScript in an isolated QuickJS sandbox (no network, no file system). The value of the last expression is returned as result. Returns {stdout, stderr, exitCode, durationMs, truncated, outcome, result?}.',
  input: ProcExecuteInputSchema,
  mutating: true,
  maxDurationMs: PROC_EXECUTE_LIMITS.maxTimeoutMs + SANDBOX_SLACK_MS,
  run: async (input, ctx) => {
    const sandbox = ctx.services.sandbox;
    if (!sandbox) throw errors.unavailable('The sandbox is not available in this process');
    // The account the call runs for (or the agent, without one): accounts share the sandbox fairly.
    const owner = ctx.principal.accountId ?? ctx.agent.accountId ?? ctx.agent.id;
    return sandbox.execute(input, { signal: ctx.signal, owner });
  },
});
