import { useEffect, useState } from 'preact/hooks';
import { ops, type Crew, type OpsMetrics } from '../api/ops';
import { BarChart, LineChart } from '../components/charts';
import { Busy, ErrorBox, Status, Table } from '../components/ui';

/** Crew coverage and this node's metrics; the throughput line is sampled by the page every 5 s. */
export function OpsPage() {
  const [metrics, setMetrics] = useState<OpsMetrics | null>(null);
  const [crew, setCrew] = useState<Crew | null>(null);
  const [samples, setSamples] = useState<number[]>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let stop = false;
    const load = async () => {
      try {
        const [m, c] = await Promise.all([ops.metrics(), ops.crew()]);
        if (stop) return;
        setMetrics(m);
        setCrew(c);
        setSamples((s) => [...s, m.summary.requests.lastMinute].slice(-60));
        setError(null);
      } catch (err) {
        if (!stop) setError(err);
      }
    };
    void load();
    const timer = setInterval(() => void load(), 5000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, []);
  if (!metrics && !error) return <Busy />;
  const routes = Object.entries(metrics?.metrics?.routes ?? {})
    .sort((a, b) => b[1].p95Ms - a[1].p95Ms)
    .slice(0, 8);
  return (
    <section>
      <h1>Operations</h1>
      <ErrorBox error={error} />
      {metrics ? (
        <div class="grid">
          <div class="card">
            <p>
              Node <Status status={metrics.summary.status} /> · up{' '}
              {Math.round(metrics.summary.uptimeSeconds / 60)} min · error rate{' '}
              {(metrics.summary.errorRate.requests * 100).toFixed(2)} % of requests,{' '}
              {(metrics.summary.errorRate.toolCalls * 100).toFixed(2)} % of tool calls ·{' '}
              {metrics.summary.requests.lastHour} requests and {metrics.summary.toolCalls.lastHour} tool calls
              in the last hour
            </p>
            <LineChart title="Requests in the last minute" points={samples} />
          </div>
          <div class="card">
            <BarChart
              title="Executions by status"
              bars={Object.entries(metrics.summary.executions).map(([label, value]) => ({
                label,
                value,
                tone: label.toLowerCase(),
              }))}
            />
          </div>
          <div class="card">
            {routes.length ? (
              <BarChart
                title="p95 latency by route (ms)"
                unit=" ms"
                bars={routes.map(([label, v]) => ({ label, value: v.p95Ms }))}
              />
            ) : (
              <p class="muted">
                Latency percentiles are for ops admins: sign in with an account listed in ADMIN_EMAILS.
              </p>
            )}
          </div>
        </div>
      ) : null}
      {crew ? (
        <div class="card">
          <h2>Crew coverage</h2>
          <p>
            <Status status={crew.coverage.status} /> {crew.summary.features} features ·{' '}
            {crew.summary.fullyCovered} fully covered · {crew.summary.degraded} degraded ·{' '}
            {crew.summary.uncovered} uncovered · {crew.summary.nodes} nodes
          </p>
          {crew.coverage.items ? (
            <Table headers={['Feature', 'Coverage', 'Active', 'Standby']}>
              {crew.coverage.items.map((i) => (
                <tr key={i.featureSlug}>
                  <td>{i.featureSlug}</td>
                  <td>
                    <Status status={i.coverage} />
                  </td>
                  <td>{i.active?.nodeId ?? '—'}</td>
                  <td>{i.standby?.nodeId ?? '—'}</td>
                </tr>
              ))}
            </Table>
          ) : (
            <p class="muted">Per-feature details are for ops admins.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
