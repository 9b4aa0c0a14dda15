import {
  canServe,
  featuresOf,
  planFailover,
  planFeature,
  type CrewNode,
  type FeatureUses,
} from '../../../actors/operations/crew-plan';
import { appUses, skillUses } from '../../../actors/operations/installed-features';

/**
 * Skill and app features: a node serves one only when it offers every runtime function the skill
 * or app uses; coverage is fully covered with two such nodes, degraded with one, uncovered with
 * none; a stored assignment of a skill no longer installed is not a feature.
 */

const node = (nodeId: string, runtime: string[], role = 'worker'): CrewNode => ({
  nodeId,
  role,
  kinds: runtime.length ? ['agent'] : [],
  runtime,
  duties: [],
  load: { actors: 0, inFlight: 0, rssBytes: 0, loadAvg1m: 0 },
  startedAt: '2026-01-01T00:00:00.000Z',
  beatAt: 0,
});

const uses: FeatureUses = new Map([
  ['skill:csv-toolkit', ['sandbox']],
  ['skill:http-json-fetch', ['http-egress', 'sandbox']],
  ['app:ops-relay', ['connectors', 'http-egress', 'sandbox']],
  ['app:static-page', []],
]);

describe('skill and app features', () => {
  const full = node('a-full', ['sandbox', 'http-egress', 'connectors']);
  const sandboxOnly = node('b-sandbox', ['sandbox', 'connectors']);
  const api = node('c-api', [], 'api');

  it('are listed from the installed ones, next to what the nodes announce', () => {
    const slugs = featuresOf([full], ['skill:removed-long-ago', 'duty:sweeper'], uses);
    expect(slugs).toEqual(
      expect.arrayContaining([
        'skill:csv-toolkit',
        'skill:http-json-fetch',
        'app:ops-relay',
        'app:static-page',
        'runtime:sandbox',
        'duty:sweeper',
      ]),
    );
    // Its assignment outlived the installation: not a feature any more.
    expect(slugs).not.toContain('skill:removed-long-ago');
  });

  it('a node serves one only with every runtime function it uses', () => {
    expect(canServe(full, 'skill:http-json-fetch', uses)).toBe(true);
    expect(canServe(sandboxOnly, 'skill:http-json-fetch', uses)).toBe(false);
    expect(canServe(sandboxOnly, 'skill:csv-toolkit', uses)).toBe(true);
    expect(canServe(sandboxOnly, 'app:ops-relay', uses)).toBe(false);
    // Using no runtime function still takes a node hosting actors; a front door serves nothing.
    expect(canServe(sandboxOnly, 'app:static-page', uses)).toBe(true);
    expect(canServe(api, 'app:static-page', uses)).toBe(false);
    expect(canServe(full, 'skill:not-installed', uses)).toBe(false);
  });

  it('coverage: fully covered with two capable nodes, degraded with one, uncovered with none', () => {
    const nodes = [full, sandboxOnly, api];
    const csv = planFeature('skill:csv-toolkit', nodes, undefined, uses);
    expect(csv).toMatchObject({ kind: 'skill', coverage: 'fullyCovered', uses: ['sandbox'] });
    expect([csv.active, csv.standby].sort()).toEqual(['a-full', 'b-sandbox']);

    const fetch = planFeature('skill:http-json-fetch', nodes, undefined, uses);
    expect(fetch).toMatchObject({
      kind: 'skill',
      coverage: 'degraded',
      active: 'a-full',
      standby: null,
      uses: ['http-egress', 'sandbox'],
    });
    expect(planFailover(fetch, nodes, { by: 'test', reason: 'drill', at: 'now' }, uses)).toBeUndefined();

    const relay = planFeature('app:ops-relay', [sandboxOnly, api], undefined, uses);
    expect(relay).toMatchObject({ kind: 'app', coverage: 'uncovered', active: null, standby: null });

    // A stored crew whose active node lost the function: the capable standby is promoted.
    const moved = planFeature(
      'skill:http-json-fetch',
      nodes,
      { active: 'b-sandbox', standby: 'a-full' },
      uses,
    );
    expect(moved).toMatchObject({ active: 'a-full', standby: null, coverage: 'degraded' });
  });

  it('the other kinds carry no `uses`', () => {
    expect(planFeature('runtime:sandbox', [full], undefined, uses).uses).toBeUndefined();
  });
});

describe('runtime functions of skills and apps', () => {
  it('a skill runs in the sandbox; net adds egress, mcp connectors', () => {
    expect(skillUses([])).toEqual(['sandbox']);
    expect(skillUses(['mem', 'net'])).toEqual(['http-egress', 'sandbox']);
    expect(skillUses(['mcp', 'fs'])).toEqual(['connectors', 'sandbox']);
  });

  it('an app uses what its skills use, plus what its permissions and primitives name', () => {
    const perms = new Map([
      ['http-json-fetch', ['net']],
      ['csv-toolkit', []],
    ]);
    const manifest = { skills: ['csv-toolkit'], requiredSkills: [], permissions: [], primitives: [] };
    expect(appUses(manifest, perms)).toEqual(['sandbox']);
    expect(appUses({ ...manifest, requiredSkills: ['http-json-fetch'] }, perms)).toEqual([
      'http-egress',
      'sandbox',
    ]);
    expect(appUses({ ...manifest, skills: [], permissions: ['files:read', 'mcp'] }, perms)).toEqual([
      'connectors',
    ]);
    expect(appUses({ ...manifest, skills: [], primitives: ['net_fetch', 'proc_execute'] }, perms)).toEqual([
      'http-egress',
      'sandbox',
    ]);
    expect(appUses({ ...manifest, skills: [] }, perms)).toEqual([]);
  });
});
