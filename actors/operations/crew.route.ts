import { CrewFailoverBodySchema } from '../../schemas/http/operations';
import type { RouteModule } from '../../src/http/app.types';
import { parseBody } from '../../src/http/validation';
import type { Coverage, CrewNode, FeatureCrew, FeatureKind } from './crew-plan';
import type { CrewService } from './crew.service';
import { createOpsAuth, type OpsAuthServices } from './ops-auth';

/** What the crew routes read from the process's services. */
export interface CrewRouteServices extends OpsAuthServices {
  readonly crew: CrewService;
}

/** The worst coverage of all features (none at all is uncovered: nothing can run). */
function overall(features: readonly FeatureCrew[]): Coverage {
  if (features.length === 0 || features.some((f) => f.coverage === 'uncovered')) return 'uncovered';
  return features.some((f) => f.coverage === 'degraded') ? 'degraded' : 'fullyCovered';
}

/**
 * The crew (docs/operations.md): `GET /api/ops/crew` (no auth: the counts; the per-feature matrix
 * and the nodes for ops admins), `POST /api/ops/crew/bootstrap` and `/failover` (ops admin),
 * `POST /api/ops/crew/cron` (CRON_SECRET or ADMIN_TOKEN as bearer).
 */
export const crewRoute: RouteModule<CrewRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const { crew } = services;
  const auth = createOpsAuth(services, deps);
  const settings = () => ({
    heartbeatMs: crew.heartbeatMs,
    leaseMs: crew.leaseMs,
    store: crew.storeKind,
    thisNode: crew.nodeId,
  });

  router.get('/api/ops/crew', async (req, res) => {
    const admin = await auth.isAdmin(req, res);
    const view = await crew.refresh();
    const { features, nodes } = view;
    const count = (c: Coverage) => features.filter((f) => f.coverage === c).length;
    const byKind: Record<FeatureKind, number> = { actor: 0, runtime: 0, duty: 0, skill: 0, app: 0 };
    for (const f of features) byKind[f.kind] += 1;
    const summary = {
      features: features.length,
      fullyCovered: count('fullyCovered'),
      degraded: count('degraded'),
      uncovered: count('uncovered'),
      nodes: nodes.length,
      byKind,
    };
    const status = overall(features);
    if (!admin) {
      res.json({ summary, settings: settings(), coverage: { status }, requiresAuthForDetails: true });
      return;
    }
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const member = (id: string | null) => {
      const node = id ? byId.get(id) : undefined;
      return node ? { nodeId: node.nodeId, heartbeatAgeMs: Math.max(0, view.at - node.beatAt) } : null;
    };
    const nodeView = ({ beatAt, ...n }: CrewNode) => ({
      ...n,
      heartbeatAgeMs: Math.max(0, view.at - beatAt),
    });
    res.json({
      summary,
      settings: settings(),
      coverage: {
        status,
        items: features.map((f) => ({ ...f, active: member(f.active), standby: member(f.standby) })),
        nodes: nodes.map(nodeView),
      },
      requiresAuthForDetails: false,
    });
  });

  router.post('/api/ops/crew/bootstrap', auth.requireAdmin, async (_req, res) => {
    // Queues and exchanges are declared by every process at boot (idempotent); indexes again here.
    res.json({ success: true, result: await crew.bootstrap() });
  });

  router.post('/api/ops/crew/failover', auth.requireAdmin, async (req, res) => {
    const body = parseBody(CrewFailoverBodySchema, req);
    const by = String(res.locals.opsAdmin ?? 'ops-admin');
    const { before, after } = await crew.failover(body.featureSlug, by, body.reason);
    res.json({
      success: true,
      result: {
        featureSlug: body.featureSlug,
        previous: { active: before.active, standby: before.standby },
        active: after.active,
        standby: after.standby,
        coverage: after.coverage,
        failover: after.lastFailover,
      },
    });
  });

  router.post('/api/ops/crew/cron', auth.requireCron, async (_req, res) => {
    const ran = await crew.runAll();
    res.json({ success: ran.every((r) => r.ok), result: { ran } });
  });
};
