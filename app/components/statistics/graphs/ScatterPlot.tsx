import { scaleLinear, scaleUtc } from "@visx/scale";
import { chartPalette } from "../PieChart";
import { innerH, innerW, numberIn, PlotFrame, ValueAxis, type PlotProps } from "./plot-frame";

const pad = (n: number) => String(n).padStart(2, "0");

/** A wall-clock time (kept as if UTC) as DD.MM.YYYY, or DD.MM. HH:mm when the axis spans less than 3 days. */
function dateTick(span: number) {
  return (ms: number) => {
    const d = new Date(ms);
    const day = `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.`;
    return span < 3 * 86_400_000
      ? `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
      : `${day}${d.getUTCFullYear()}`;
  };
}

/** A scale over the values, a little wider than them when they are all the same. */
function scaleOf(values: number[], range: [number, number], dates: boolean) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const spread = hi > lo ? 0 : dates ? 86_400_000 : 1;
  const domain = [lo - spread, hi + spread];
  if (dates) {
    const time = scaleUtc({ domain: domain.map((v) => new Date(v)), range, nice: true });
    const span = time.domain()[1].getTime() - time.domain()[0].getTime();
    return {
      at: (v: number) => time(new Date(v)),
      ticks: time.ticks(4).map((d) => d.getTime()),
      format: dateTick(span),
    };
  }
  const linear = scaleLinear({ domain, range, nice: true });
  return { at: (v: number) => linear(v), ticks: linear.ticks(4), format: undefined };
}

/**
 * One point per case at its two answers, on scales of their values (numbers, or date-times); nothing joins
 * the points, since the cases are not a series.
 */
export function ScatterPlot({
  points,
  dates,
  label,
  axes,
  locale,
}: PlotProps & { points: { x: number; y: number }[]; dates: boolean }) {
  const x = scaleOf(
    points.map((p) => p.x),
    [0, innerW],
    dates,
  );
  const y = scaleOf(
    points.map((p) => p.y),
    [innerH, 0],
    dates,
  );
  const number = numberIn(locale);
  return (
    <PlotFrame label={label} axes={axes}>
      <ValueAxis ticks={y.ticks} at={y.at} format={y.format ?? number} />
      <g aria-hidden="true">
        {x.ticks.map((v) => (
          <g key={v} transform={`translate(${x.at(v)},0)`}>
            <line y2={innerH} stroke="#eef1f4" />
            <text y={innerH + 16} textAnchor="middle" fontSize={11} fill="#444">
              {(x.format ?? number)(v)}
            </text>
          </g>
        ))}
      </g>
      {points.map((p, i) => (
        <circle key={i} cx={x.at(p.x)} cy={y.at(p.y)} r={3.5} fill={chartPalette[0]} fillOpacity={0.7} />
      ))}
    </PlotFrame>
  );
}
