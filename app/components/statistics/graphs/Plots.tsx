import { Group } from "@visx/group";
import { scaleBand, scaleLinear, scalePoint } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { chartLabel } from "~/domain/dashboards";
import { chartPalette } from "../PieChart";
import { H, innerH, innerW, Label, numberIn, PlotFrame, ValueAxis, W, type PlotProps } from "./plot-frame";

export { ScatterPlot } from "./ScatterPlot";

interface Point {
  label: string;
  value: number;
}

/** A value axis from 0 (or below, for negative values) up to a nice step above the largest value. */
function valueScale(values: number[]) {
  return scaleLinear({
    domain: [Math.min(0, ...values), Math.max(1, ...values)],
    range: [innerH, 0],
    nice: true,
  });
}

/** Points joined by a line; with more than 10 categories every 5th label is written (section 9). */
export function LineChart({ points, label, axes, locale }: PlotProps & { points: Point[] }) {
  const x = scalePoint({ domain: points.map((_, i) => i), range: [0, innerW], padding: 0.5 });
  const y = valueScale(points.map((p) => p.value));
  const every = points.length > 10 ? 5 : 1;
  return (
    <PlotFrame label={label} axes={axes}>
      <ValueAxis ticks={y.ticks(4)} at={y} format={numberIn(locale)} />
      <LinePath data={points} x={(_, i) => x(i) ?? 0} y={(p) => y(p.value)} stroke={chartPalette[0]} strokeWidth={2} />
      {points.map((p, i) => (
        <circle key={i} cx={x(i)} cy={y(p.value)} r={3} fill={chartPalette[0]} />
      ))}
      {points.map((p, i) => (i % every === 0 ? <Label key={i} x={x(i) ?? 0} text={p.label} /> : null))}
    </PlotFrame>
  );
}

export function BarChart({ points, label, axes, locale }: PlotProps & { points: Point[] }) {
  const x = scaleBand({ domain: points.map((_, i) => i), range: [0, innerW], padding: 0.25 });
  const y = valueScale(points.map((p) => p.value));
  return (
    <PlotFrame label={label} axes={axes}>
      <ValueAxis ticks={y.ticks(4)} at={y} format={numberIn(locale)} />
      {points.map((p, i) => (
        <Bar
          key={i}
          x={x(i)}
          y={y(Math.max(0, p.value))}
          width={x.bandwidth()}
          height={Math.abs(y(p.value) - y(0))}
          fill={chartPalette[i % chartPalette.length]}
        />
      ))}
      {points.map((p, i) => (
        <Label key={i} x={(x(i) ?? 0) + x.bandwidth() / 3} text={p.label} />
      ))}
    </PlotFrame>
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
export function BoxPlot({ boxes, label, axes, locale }: PlotProps & { boxes: Box[] }) {
  const x = scaleBand({ domain: boxes.map((_, i) => i), range: [0, innerW], padding: 0.4 });
  const y = valueScale(boxes.flatMap((b) => [b.min, b.max]));
  const w = x.bandwidth();
  return (
    <PlotFrame label={label} axes={axes}>
      <ValueAxis ticks={y.ticks(4)} at={y} format={numberIn(locale)} />
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
    </PlotFrame>
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
