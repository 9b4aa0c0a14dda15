/**
 * A histogram of the hot path with its counter, kept without allocating per observation: one
 * entry per label set (created once), a bucket array updated in place. prom-client hashes the
 * label values on every `observe`, even through a child from `labels()`, which cost about a
 * microsecond per request; these series are rendered in Prometheus text by `render` at scrape
 * time, beside the registry's (bench/results/metrics.md).
 */
export interface HotSeries {
  /** Label values, in the order of the histogram's label names. */
  readonly labels: readonly string[];
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export class HotHistogram {
  readonly series: HotSeries[] = [];

  constructor(
    readonly name: string,
    readonly counterName: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly bounds: readonly number[],
  ) {}

  /** A new series for these label values (the caller keeps it and observes through it). */
  create(labels: readonly string[]): HotSeries {
    const series = { labels, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
    this.series.push(series);
    return series;
  }

  observe(series: HotSeries, seconds: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]) i++;
    series.buckets[i] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** Quantile `q` (0..1) of some series merged, in seconds: the upper bound of its bucket (null if none or +Inf). */
  quantile(of: readonly HotSeries[], q: number): number | null {
    const merged = new Float64Array(this.bounds.length + 1);
    let total = 0;
    for (const s of of) {
      for (let i = 0; i < merged.length; i++) merged[i] += s.buckets[i];
      total += s.count;
    }
    if (total === 0) return null;
    let seen = 0;
    for (let i = 0; i < merged.length; i++) {
      seen += merged[i];
      if (seen >= q * total) return i < this.bounds.length ? this.bounds[i] : null;
    }
    return null;
  }

  /** Both series families in Prometheus text format (0.0.4). */
  render(): string {
    const out: string[] = [`# HELP ${this.counterName} ${this.help}`, `# TYPE ${this.counterName} counter`];
    const labelText = (s: HotSeries) =>
      this.labelNames.map((n, i) => `${n}="${escape(s.labels[i])}"`).join(',');
    for (const s of this.series) out.push(`${this.counterName}{${labelText(s)}} ${s.count}`);
    out.push(`# HELP ${this.name} ${this.help} (latency, seconds)`, `# TYPE ${this.name} histogram`);
    for (const s of this.series) {
      const labels = labelText(s);
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += s.buckets[i];
        out.push(`${this.name}_bucket{${labels},le="${this.bounds[i]}"} ${cumulative}`);
      }
      out.push(`${this.name}_bucket{${labels},le="+Inf"} ${s.count}`);
      out.push(`${this.name}_sum{${labels}} ${s.sum}`, `${this.name}_count{${labels}} ${s.count}`);
    }
    return `${out.join('\n')}\n`;
  }
}
