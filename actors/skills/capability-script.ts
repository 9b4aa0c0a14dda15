import type { HostCalls, Sandbox, SandboxResult } from '../../src/sandbox';
import { SKILL_LIMITS } from '../../schemas/documents/skill';

/** What a run needs of a skill (its document, or content being published). */
export interface RunnableSkill {
  readonly slug: string;
  readonly library?: string;
  readonly capabilities: readonly { name: string; code: string }[];
}

/**
 * The script one use runs in the sandbox (docs/skills.md, "Capability code"): strict mode; `lib`,
 * the skill's own library (if any); `deps`, a frozen object of the libraries of its dependencies
 * (required ones, and optional ones that are installed) keyed by slug; the capability's code;
 * then `run(params)` with the params read from `stdin` (JSON). The value of `run` (awaited when
 * it is a promise) is the result. `platform` exists only when the use is offered host calls.
 */
export function capabilityScript(
  skill: RunnableSkill,
  capability: string,
  dependencies: ReadonlyMap<string, string>,
): string {
  const cap = skill.capabilities.find((c) => c.name === capability);
  if (!cap) throw new Error(`capability ${capability} not in ${skill.slug}`);
  const library = (code: string) => `(function () {\n${code}\n;return library();\n})()`;
  const deps = [...dependencies]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([slug, code]) => `  ${JSON.stringify(slug)}: ${library(code)},`)
    .join('\n');
  return [
    "'use strict';",
    `var lib = ${skill.library ? library(skill.library) : 'Object.freeze({})'};`,
    `var deps = Object.freeze({\n${deps}\n});`,
    cap.code,
    ';run(JSON.parse(stdin));',
  ].join('\n');
}

/** How a run ended, for the caller: the value, or why there is none. */
export type CapabilityRun =
  | { ok: true; result: unknown; durationMs: number }
  | { ok: false; outcome: SandboxResult['outcome'] | 'no_result'; message: string; durationMs: number };

/** The last line of stderr: the uncaught error the sandbox describes (or why it stopped). */
function failureMessage(result: SandboxResult): string {
  const lines = result.stderr.trim().split('\n');
  const first = lines.findIndex((l) => /^[A-Za-z]*Error\b|^Uncaught /.test(l));
  return (
    (first >= 0 ? lines[first] : (lines.at(-1) ?? '')).slice(0, 500) ||
    `The capability ended ${result.outcome}`
  );
}

/**
 * Runs one capability in the sandbox with the limits of a use (10 s; the sandbox caps the result
 * and the output). Resolves how it ended; rejects only when the sandbox itself fails.
 */
export async function runCapability(
  sandbox: Pick<Sandbox, 'execute'>,
  request: {
    skill: RunnableSkill;
    capability: string;
    params: unknown;
    dependencies?: ReadonlyMap<string, string>;
    host?: HostCalls;
    signal?: AbortSignal;
    /** The account the run is for: the sandbox shares its threads fairly between accounts. */
    owner?: string;
  },
): Promise<CapabilityRun> {
  const code = capabilityScript(request.skill, request.capability, request.dependencies ?? new Map());
  const result = await sandbox.execute(
    { language: 'javascript', code, stdin: JSON.stringify(request.params), timeout: SKILL_LIMITS.timeoutMs },
    { signal: request.signal, host: request.host, owner: request.owner },
  );
  if (result.outcome !== 'ok')
    return {
      ok: false,
      outcome: result.outcome,
      message: failureMessage(result),
      durationMs: result.durationMs,
    };
  if (result.result === undefined) {
    const message = result.truncated
      ? 'The result is larger than the sandbox allows (64 KB of JSON)'
      : 'The capability returned no JSON value';
    return { ok: false, outcome: 'no_result', message, durationMs: result.durationMs };
  }
  return { ok: true, result: result.result, durationMs: result.durationMs };
}
