import { Group } from "@visx/group";
import { scaleBand, scaleLinear, scalePoint } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { chartLabel } from "~/domain/dashboards";
import { chartPalette } from "../PieChart";

const W = 560;
const H = 240;
const M = { top: 12, right: 16, bottom: 56, left: 48 };
const innerW = W - M.left - M.right;
const innerH = H - M.top - M.bottom;

interface Point {
  label: string;
  value: number;
}

const fmt = (n: number) => String(Math.round(n * 100) / 100);

function ValueAxis({ max }: { max: number }) {
  const y = scaleLinear({ domain: [0, max || 1], range: [innerH, 0] });
  return (
    <g aria-hidden="true">
      {y.ticks(4).map((v) => (
        <g key={v} transform={`translate(0,${y(v)})`}>
          <line x2={innerW} stroke="#e3e7ec" />
          <text x={-6} dy="0.32em" textAnchor="end" fontSize={11} fill="#444">
            {fmt(v)}
          </text>
        </g>
      ))}
    </g>
  );
}

function Label({ x, text }: { x: number; text: string }) {
  return (
    <text transform={`translate(${x},${innerH + 14}) rotate(30)`} fontSize={11} fill="#333" aria-hidden="true">
      {chartLabel(text)}
    </text>
  );
}

/** Points joined by a line; with more than 10 categories every 5th label is written (section 9). */
export function LineChart({ points, label }: { points: Point[]; label: string }) {
  const max = Math.max(...points.map((p) => p.value));
  const min = Math.min(0, ...points.map((p) => p.value));
  const x = scalePoint({ domain: points.map((_, i) => i), range: [0, innerW], padding: 0.5 });
  const y = scaleLinear({ domain: [min, max || 1], range: [innerH, 0], nice: true });
  const every = points.length > 10 ? 5 : 1;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="graph__svg">
      <Group top={M.top} left={M.left}>
        <ValueAxis max={y.domain()[1]} />
        <LinePath
          data={points}
          x={(_, i) => x(i) ?? 0}
          y={(p) => y(p.value)}
          stroke={chartPalette[0]}
          strokeWidth={2}
        />
        {points.map((p, i) => (
          <circle key={i} cx={x(i)} cy={y(p.value)} r={3} fill={chartPalette[0]} />
        ))}
        {points.map((p, i) => (i % every === 0 ? <Label key={i} x={x(i) ?? 0} text={p.label} /> : null))}
      </Group>
    </svg>
  );
}

export function BarChart({ points, label }: { points: Point[]; label: string }) {
  const x = scaleBand({ domain: points.map((_, i) => i), range: [0, innerW], padding: 0.25 });
  const y = scaleLinear({ domain: [0, Math.max(1, ...points.map((p) => p.value))], range: [innerH, 0], nice: true });
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="graph__svg">
      <Group top={M.top} left={M.left}>
        <ValueAxis max={y.domain()[1]} />
        {points.map((p, i) => (
          <Bar
            key={i}
            x={x(i)}
            y={y(p.value)}
            width={x.bandwidth()}
            height={innerH - y(p.value)}
            fill={chartPalette[i % chartPalette.length]}
          />
        ))}
        {points.map((p, i) => (
          <Label key={i} x={(x(i) ?? 0) + x.bandwidth() / 3} text={p.label} />
        ))}
      </Group>
    </svg>
  );
}

interface Box {
  label: string;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

/** Min, quartiles and max of each answer's scores. */
export function BoxPlot({ boxes, label }: { boxes: Box[]; label: string }) {
  const x = scaleBand({ domain: boxes.map((_, i) => i), range: [0, innerW], padding: 0.4 });
  const y = scaleLinear({ domain: [0, Math.max(1, ...boxes.map((b) => b.max))], range: [innerH, 0], nice: true });
  const w = x.bandwidth();
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="graph__svg">
      <Group top={M.top} left={M.left}>
        <ValueAxis max={y.domain()[1]} />
        {boxes.map((b, i) => {
          const left = x(i) ?? 0;
          const c = left + w / 2;
          return (
            <g key={i} stroke={chartPalette[0]} strokeWidth={1.5}>
              <line x1={c} x2={c} y1={y(b.min)} y2={y(b.max)} />
              <line x1={left + w / 4} x2={left + (3 * w) / 4} y1={y(b.min)} y2={y(b.min)} />
              <line x1={left + w / 4} x2={left + (3 * w) / 4} y1={y(b.max)} y2={y(b.max)} />
              <rect x={left} width={w} y={y(b.q3)} height={Math.max(1, y(b.q1) - y(b.q3))} fill="#dce8f5" />
              <line x1={left} x2={left + w} y1={y(b.median)} y2={y(b.median)} strokeWidth={3} />
            </g>
          );
        })}
        {boxes.map((b, i) => (
          <Label key={i} x={(x(i) ?? 0) + w / 3} text={b.label} />
        ))}
      </Group>
    </svg>
  );
}

/** A radar needs this many categories to enclose an area; with fewer it is a spoke or two (ChartView says why). */
export const RADAR_AREA_FROM = 3;

/**
 * Each category's actual score against its maximum, as shares of the maximum on one spoke each, marked by a
 * dot. With fewer than three categories the shares enclose no area: the spokes and dots remain.
 */
export function RadarChart({ axes, label }: { axes: { label: string; actual: number; max: number }[]; label: string }) {
  const r = 90;
  const n = Math.max(axes.length, RADAR_AREA_FROM);
  const shares = axes.map((a) => (a.max > 0 ? Math.min(1, a.actual / a.max) : 0));
  const at = (i: number, share: number) => {
    const a = (Math.PI * 2 * i) / n - Math.PI / 2;
    return [Math.cos(a) * r * share, Math.sin(a) * r * share] as const;
  };
  const polygon = (shares: number[]) => shares.map((s, i) => at(i, s).join(",")).join(" ");
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="graph__svg">
      <Group top={H / 2} left={W / 2}>
        <polygon points={polygon(axes.map(() => 1))} fill="none" stroke="#c8ced6" />
        {axes.map((_, i) => {
          const [x2, y2] = at(i, 1);
          return <line key={i} x2={x2} y2={y2} stroke="#e3e7ec" />;
        })}
        <polygon points={polygon(shares)} fill={chartPalette[0]} fillOpacity={0.35} stroke={chartPalette[0]} />
        {shares.map((share, i) => {
          const [cx, cy] = at(i, share);
          return <circle key={i} cx={cx} cy={cy} r={4} fill={chartPalette[0]} />;
        })}
        {axes.map((a, i) => {
          const [x, y] = at(i, 1.15);
          return (
            <text key={i} x={x} y={y} fontSize={11} textAnchor="middle" aria-hidden="true">
              {chartLabel(a.label)}
            </text>
          );
        })}
      </Group>
    </svg>
  );
}
