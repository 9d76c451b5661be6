import { Group } from "@visx/group";
import { Pie } from "@visx/shape";

export interface PieSlice {
  label: string;
  value: number;
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

/**
 * A pie of answer counts, drawn as SVG on the server. The figures stand beside it in the question's table,
 * which is the text alternative; the SVG itself is a labelled image.
 */
export function PieChart({ slices, size = 160, label }: { slices: PieSlice[]; size?: number; label: string }) {
  const data = slices.filter((s) => s.value > 0);
  const radius = size / 2;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} className="pie">
      <Group top={radius} left={radius}>
        {data.length === 0 ? (
          <circle r={radius - 1} fill="none" stroke="#c8ced6" strokeWidth={2} />
        ) : (
          <Pie data={data} pieValue={(s) => s.value} outerRadius={radius - 1} padAngle={data.length > 1 ? 0.01 : 0}>
            {(pie) =>
              pie.arcs.map((arc, i) => (
                <path
                  key={`${arc.data.label}-${i}`}
                  d={pie.path(arc) ?? ""}
                  fill={chartPalette[i % chartPalette.length]}
                >
                  <title>{`${arc.data.label}: ${arc.data.value}`}</title>
                </path>
              ))
            }
          </Pie>
        )}
      </Group>
    </svg>
  );
}

/** The colour a slice of the answer at this position has (for the legend swatch in the table). */
export function sliceColour(indexAmongNonEmpty: number) {
  return chartPalette[indexAmongNonEmpty % chartPalette.length];
}
