import { HotHistogram } from '../../../actors/operations/hot-histogram';

describe('HotHistogram', () => {
  const make = () => new HotHistogram('x_seconds', 'x_total', 'Things', ['route', 'status'], [0.01, 0.1, 1]);

  it('renders the counter and the cumulative buckets in Prometheus text, label values escaped', () => {
    const h = make();
    const a = h.create(['/a', '200']);
    const b = h.create(['/say "hi"\\', '500']);
    h.observe(a, 0.005);
    h.observe(a, 0.05);
    h.observe(a, 5);
    h.observe(b, 0.1);
    expect(h.render()).toBe(
      [
        '# HELP x_total Things',
        '# TYPE x_total counter',
        'x_total{route="/a",status="200"} 3',
        'x_total{route="/say \\"hi\\"\\\\",status="500"} 1',
        '# HELP x_seconds Things (latency, seconds)',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{route="/a",status="200",le="0.01"} 1',
        'x_seconds_bucket{route="/a",status="200",le="0.1"} 2',
        'x_seconds_bucket{route="/a",status="200",le="1"} 2',
        'x_seconds_bucket{route="/a",status="200",le="+Inf"} 3',
        'x_seconds_sum{route="/a",status="200"} 5.055',
        'x_seconds_count{route="/a",status="200"} 3',
        // An observation equal to a bound falls in that bound's bucket (le = less or equal).
        'x_seconds_bucket{route="/say \\"hi\\"\\\\",status="500",le="0.01"} 0',
        'x_seconds_bucket{route="/say \\"hi\\"\\\\",status="500",le="0.1"} 1',
        'x_seconds_bucket{route="/say \\"hi\\"\\\\",status="500",le="1"} 1',
        'x_seconds_bucket{route="/say \\"hi\\"\\\\",status="500",le="+Inf"} 1',
        'x_seconds_sum{route="/say \\"hi\\"\\\\",status="500"} 0.1',
        'x_seconds_count{route="/say \\"hi\\"\\\\",status="500"} 1',
        '',
      ].join('\n'),
    );
  });

  it('gives quantiles as the upper bound of their bucket, over merged series; null past the last bound', () => {
    const h = make();
    const ok = h.create(['/a', '200']);
    const err = h.create(['/a', '500']);
    for (let i = 0; i < 90; i++) h.observe(ok, 0.005);
    for (let i = 0; i < 9; i++) h.observe(err, 0.5);
    h.observe(err, 3);
    expect(h.quantile([ok, err], 0.5)).toBe(0.01);
    expect(h.quantile([ok, err], 0.95)).toBe(1);
    expect(h.quantile([ok, err], 1)).toBeNull();
    expect(h.quantile([], 0.5)).toBeNull();
  });
});
