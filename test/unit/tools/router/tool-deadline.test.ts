import { createConnectorTools } from '../../../../actors/connectors/connector-tools';
import { PLATFORM_TOOLS } from '../../../../actors/tools/platform-tools';
import { DEADLINE_SLACK_MS, toolDeadlineMs } from '../../../../actors/tools/router/tool-deadline';
import { ToolRegistry, type ExternalToolResolver } from '../../../../actors/tools/router/tool-registry';
import type { ActorSystemApi } from '../../../../src/kernel';

/** The connector functions never reach the system in these tests (no call is made). */
const noSystem = {} as ActorSystemApi;

describe('toolDeadlineMs (the front door deadline of one tool call)', () => {
  const registry = new ToolRegistry(PLATFORM_TOOLS);
  const base = 15_000;

  it('is REQUEST_TIMEOUT_MS for a built-in tool without maxDurationMs', () => {
    expect(toolDeadlineMs(registry.resolve('mem_get'), base, {})).toBe(base);
  });

  it("covers a built-in tool's maxDurationMs plus slack, never below REQUEST_TIMEOUT_MS", () => {
    const target = registry.resolve('proc_execute');
    const max = target.kind === 'platform' ? target.declaration.maxDurationMs! : 0;
    expect(max).toBeGreaterThan(0);
    expect(toolDeadlineMs(target, base, {})).toBe(Math.max(base, max + DEADLINE_SLACK_MS));
    expect(toolDeadlineMs(target, 600_000, {})).toBe(600_000);
  });

  it('takes the connector resolver maxDurationMs for mcp.<slug>.<tool> (none installed: REQUEST_TIMEOUT_MS)', () => {
    const target = registry.resolve('mcp.github.create_issue');
    expect(target.kind).toBe('connector');
    expect(toolDeadlineMs(target, base, {})).toBe(base);
    const resolver: ExternalToolResolver = { resolve: async () => undefined, maxDurationMs: 45_000 };
    expect(toolDeadlineMs(target, base, { connector: resolver })).toBe(45_000 + DEADLINE_SLACK_MS);
    // A skill capability follows its own resolver, not the connectors'.
    expect(toolDeadlineMs(registry.resolve('platform.skill.x.y'), base, { connector: resolver })).toBe(base);
  });

  it("the connectors' resolver: the configured call timeout plus its margin, whatever REQUEST_TIMEOUT_MS", () => {
    const target = registry.resolve('mcp.calc.slow');
    const defaults = createConnectorTools(noSystem);
    // 30 s call timeout + 15 s margin (queueing, a session start) + the router's slack.
    expect(defaults.maxDurationMs).toBe(45_000);
    expect(toolDeadlineMs(target, base, { connector: defaults })).toBe(50_000);
    expect(toolDeadlineMs(target, 500, { connector: defaults })).toBe(50_000);

    const tuned = createConnectorTools(noSystem, { callTimeoutMs: 90_000, maxCallTimeoutMs: 120_000 });
    expect(toolDeadlineMs(target, base, { connector: tuned })).toBe(90_000 + 15_000 + DEADLINE_SLACK_MS);
    // The default call timeout never exceeds the largest one.
    const capped = createConnectorTools(noSystem, { callTimeoutMs: 300_000, maxCallTimeoutMs: 120_000 });
    expect(capped.maxDurationMs).toBe(120_000 + 15_000);
  });
});
