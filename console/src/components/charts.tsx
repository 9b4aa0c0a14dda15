/** Small inline SVG charts: a picture where it reads faster than a table (no chart library). */

export interface Bar {
  label: string;
  value: number;
  tone?: string;
}

const W = 320;

export function BarChart({ bars, title, unit = '' }: { bars: Bar[]; title: string; unit?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rowH = 22;
  const labelW = 110;
  const h = bars.length * rowH + 4;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${h}`} role="img" aria-label={title} width="100%">
        {bars.map((b, i) => {
          const w = ((W - labelW - 60) * b.value) / max;
          const y = i * rowH + 2;
          return (
            <g key={b.label}>
              <text x={0} y={y + 15} class="chart-label">
                {b.label.length > 16 ? `${b.label.slice(0, 15)}…` : b.label}
              </text>
              <rect
                x={labelW}
                y={y + 3}
                width={Math.max(1, w)}
                height={rowH - 8}
                class={`bar ${b.tone ?? ''}`}
                rx={2}
              />
              <text x={labelW + w + 4} y={y + 15} class="chart-value">
                {b.value}
                {unit}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** A sparkline of samples taken by the page (the API gives counts now, the page keeps the past). */
export function LineChart({ points, title, unit = '' }: { points: number[]; title: string; unit?: string }) {
  const h = 80;
  const max = Math.max(1, ...points);
  const step = points.length > 1 ? W / (points.length - 1) : W;
  const path = points
    .map(
      (p, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${(h - 4 - ((h - 8) * p) / max).toFixed(1)}`,
    )
    .join(' ');
  const last = points.at(-1) ?? 0;
  return (
    <figure class="chart">
      <figcaption>
        {title}: <strong>{last}</strong>
        {unit}
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${h}`}
        role="img"
        aria-label={`${title}, ${points.length} samples`}
        width="100%"
      >
        <line x1={0} y1={h - 4} x2={W} y2={h - 4} class="axis" />
        {points.length > 1 ? <path d={path} class="line" /> : <circle cx={4} cy={h - 4} r={3} class="dot" />}
      </svg>
    </figure>
  );
}
