import { errors } from '../../schemas/errors';
import { BUILTIN_PRIMITIVES, isToolAllowed, PLATFORM_PREFIX } from '../../schemas/tools/primitives';

/**
 * "A subagent may not exceed its parent": checks an agent's requested `allowedTools` and
 * `allowedDomains` against a ceiling (its parent's lists, or the lists of the agent key that
 * creates it). Lists are the normalised output of `AllowedToolsSchema` / `AllowedDomainsSchema`
 * (schemas/http/agents.ts, schemas/tools/primitives.ts).
 */

/** The agent lists that bound another agent's. */
export interface AgentLists {
  readonly allowedTools: readonly string[];
  readonly allowedDomains: readonly string[];
}

const isPattern = (entry: string) => entry.endsWith('*');

/**
 * The requested tools, each covered by `ceiling`, else the entries that are not (`beyond`).
 *
 * - An exact name is covered when the ceiling allows it (`isToolAllowed`).
 * - A pattern (`prefix*`) is covered by a ceiling pattern whose prefix starts it (`mcp.*` covers
 *   `mcp.github.*`; `platform.*` covers `mem_*`).
 * - A pattern that can only match built-in primitives (its prefix, without `platform.`, has no dot:
 *   `mem_*`, `platform.db_*`) is also accepted when the ceiling allows every primitive it matches
 *   today name by name; it is then stored **expanded** to those names, so that a primitive added
 *   by a later version does not reach the subagent without reaching its parent.
 */
export function fitToolsWithin(
  requested: readonly string[],
  ceiling: readonly string[],
): { tools: string[]; beyond: string[] } {
  const tools: string[] = [];
  const beyond: string[] = [];
  const ceilingPrefixes = ceiling.filter(isPattern).map((entry) => entry.slice(0, -1));
  for (const entry of requested) {
    if (!isPattern(entry)) {
      if (isToolAllowed(entry, ceiling)) tools.push(entry);
      else beyond.push(entry);
      continue;
    }
    const prefix = entry.slice(0, -1);
    const bare = prefix.startsWith(PLATFORM_PREFIX) ? prefix.slice(PLATFORM_PREFIX.length) : prefix;
    const onlyPrimitives = bare !== '' && !bare.includes('.');
    const byPattern = ceilingPrefixes.some(
      (q) => prefix.startsWith(q) || (onlyPrimitives && `${PLATFORM_PREFIX}${bare}`.startsWith(q)),
    );
    if (byPattern) {
      tools.push(entry);
      continue;
    }
    const matched = onlyPrimitives ? BUILTIN_PRIMITIVES.filter((name) => name.startsWith(bare)) : [];
    if (matched.length > 0 && matched.every((name) => isToolAllowed(name, ceiling))) tools.push(...matched);
    else beyond.push(entry);
  }
  return { tools: [...new Set(tools)], beyond };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Whether the normalised domain entry `entry` only reaches hosts that `ceiling` allows. */
function domainCovered(entry: string, ceiling: readonly string[]): boolean {
  if (ceiling.length === 0) return true;
  if (ceiling.includes(entry)) return true;
  // `*.z` reaches the subdomains of z, an exact name h reaches h: `*.y` covers them when z (or h)
  // is a subdomain of y (equal entries are handled above; an IP is only covered by itself).
  const target = entry.startsWith('*.') ? entry.slice(2) : entry;
  if (IPV4.test(target)) return false;
  return ceiling.some((c) => c.startsWith('*.') && target.endsWith(`.${c.slice(2)}`));
}

/**
 * The requested domains that `ceiling` does not cover. An empty request means every domain: it
 * exceeds any non-empty ceiling.
 */
export function domainsBeyond(requested: readonly string[], ceiling: readonly string[]): string[] {
  if (ceiling.length === 0) return [];
  if (requested.length === 0) return ['[] (every domain)'];
  return requested.filter((entry) => !domainCovered(entry, ceiling));
}

/**
 * Fits requested lists within every ceiling (absent lists are not checked). Refused: 400
 * VALIDATION_ERROR naming the entries, with `details: [{path, message}]`.
 */
export function fitListsWithin(
  requested: { allowedTools?: readonly string[]; allowedDomains?: readonly string[] },
  ceilings: ReadonlyArray<{ lists: AgentLists; what: string }>,
): { allowedTools?: string[]; allowedDomains?: string[] } {
  let tools = requested.allowedTools ? [...requested.allowedTools] : undefined;
  const domains = requested.allowedDomains ? [...requested.allowedDomains] : undefined;
  const problems: Array<{ path: string; message: string }> = [];
  for (const { lists, what } of ceilings) {
    if (tools) {
      const fit = fitToolsWithin(tools, lists.allowedTools);
      if (fit.beyond.length > 0) {
        problems.push({ path: 'allowedTools', message: `not allowed to ${what}: ${fit.beyond.join(', ')}` });
      } else tools = fit.tools;
    }
    if (domains) {
      const beyond = domainsBeyond(domains, lists.allowedDomains);
      if (beyond.length > 0) {
        problems.push({ path: 'allowedDomains', message: `not allowed to ${what}: ${beyond.join(', ')}` });
      }
    }
  }
  if (problems.length > 0) {
    throw errors.validation(
      `Invalid request body: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')} (an agent's lists cannot exceed those of the agent it is bounded by)`,
      { details: problems },
    );
  }
  return { ...(tools ? { allowedTools: tools } : {}), ...(domains ? { allowedDomains: domains } : {}) };
}
