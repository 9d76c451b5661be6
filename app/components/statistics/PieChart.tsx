import { Group } from "@visx/group";
import { Pie } from "@visx/shape";

export interface PieSlice {
  label: string;
  value: number;
  /** The share as it is written beside the colour key (e.g. "75,00 %"). */
  share: string;
}

/** Fixed theme palette for chart series (section 9: the theme palette is fixed). */
export const chartPalette = [
  "#1f5fa8",
  "#e07b39",
  "#3a9d5d",
  "#c23b4e",
  "#7b5ea7",
  "#c9a227",
  "#2a9fb0",
  "#8c6d46",
  "#d163a8",
  "#5f6b7a",
];

/** The colour of the answer at this position: the same in the pie and its key, whatever the counts. */
export function answerColor(index: number) {
  return chartPalette[index % chartPalette.length];
}

/**
 * A pie of answer counts, drawn as SVG on the server, with its key: each answer's colour, text and share.
 * The figures stand beside it in the question's table too; the SVG itself is a labelled image.
 */
export function PieChart({
  slices,
  size = 160,
  label,
  legendLabel,
}: {
  slices: PieSlice[];
  size?: number;
  label: string;
  legendLabel: string;
}) {
  const data = slices.map((s, index) => ({ ...s, index })).filter((s) => s.value > 0);
  const radius = size / 2;
  return (
    <div className="pie">
      <svg
        width={size}
        height={size}
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={label}
        className="pie__chart"
      >
        <Group top={radius} left={radius}>
          {data.length === 0 ? (
            <circle r={radius - 1} fill="none" stroke="#c8ced6" strokeWidth={2} />
          ) : (
            <Pie data={data} pieValue={(s) => s.value} outerRadius={radius - 1} padAngle={data.length > 1 ? 0.01 : 0}>
              {(pie) =>
                pie.arcs.map((arc) => (
                  <path key={arc.data.index} d={pie.path(arc) ?? ""} fill={answerColor(arc.data.index)}>
                    <title>{`${arc.data.label}: ${arc.data.value}`}</title>
                  </path>
                ))
              }
            </Pie>
          )}
        </Group>
      </svg>
      <ul className="pie__legend" aria-label={legendLabel}>
        {slices.map((s, index) => (
          <li key={index} className="pie__key">
            <span className="pie__swatch" style={{ background: answerColor(index) }} aria-hidden="true" />
            <span className="pie__label">{s.label}</span>
            <span className="pie__share">{s.share}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The shares of a question that takes several answers, as bars: they can add up to more than 100 %, which a
 * pie cannot show. Each bar is its answer's share of the cases that answered the question.
 */
export function ShareBars({
  bars,
  label,
}: {
  bars: { label: string; percent: number; share: string }[];
  label: string;
}) {
  return (
    <div className="share-bars" role="img" aria-label={label}>
      {bars.map((b, index) => (
        <div key={index} className="share-bars__row">
          <span className="share-bars__label">{b.label}</span>
          <span className="share-bars__track">
            <span
              className="share-bars__bar"
              style={{ width: `${Math.max(0, Math.min(100, b.percent))}%`, background: answerColor(index) }}
            />
          </span>
          <span className="share-bars__share">{b.share}</span>
        </div>
      ))}
    </div>
  );
}
