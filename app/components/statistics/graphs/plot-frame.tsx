import { Group } from "@visx/group";
import type { ReactNode } from "react";
import { chartLabel } from "~/domain/dashboards";

/** An axis title longer than this is cut (the figures table and the chart's text say it in full). */
const TITLE_MAX = 80;
const titleText = (text: string) => (text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text);
import { formatNumber } from "~/domain/number-format";

/** The drawing's size in SVG units (it scales to its box) and the margins that hold the axes and titles. */
export const W = 560;
export const H = 276;
export const M = { top: 30, right: 16, bottom: 74, left: 56 };
export const innerW = W - M.left - M.right;
export const innerH = H - M.top - M.bottom;

/** What the two axes show, with their units (the horizontal one's may be a preliminary question's name). */
export interface AxisTitles {
  x: string;
  y: string;
}

/** How a plot writes its numbers: in the interface's language (a decimal comma in German). */
export interface NumberStyle {
  locale?: string;
}

/** What every plot is given besides its data. */
export interface PlotProps extends NumberStyle {
  /** The image's accessible name. */
  label: string;
  axes?: AxisTitles;
}

export const numberIn = (locale: string | undefined) => (n: number) => formatNumber(n, locale ?? "en-US");

/**
 * A plot's SVG: an image with its label (the figures table after it is the text alternative), the drawing
 * inside the margins, and the axes' titles: the vertical one's above the values, so that a long one is not
 * cut to the drawing's height, the horizontal one's under the labels.
 */
export function PlotFrame({ label, axes, children }: { label: string; axes?: AxisTitles; children: ReactNode }) {
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="graph__svg">
      <Group top={M.top} left={M.left}>
        {children}
        {axes ? (
          <g aria-hidden="true" fontSize={12} fill="#333">
            <text x={-M.left + 4} y={-M.top + 14}>
              {titleText(axes.y)}
            </text>
            <text x={innerW / 2} y={innerH + M.bottom - 6} textAnchor="middle">
              {titleText(axes.x)}
            </text>
          </g>
        ) : null}
      </Group>
    </svg>
  );
}

/** Grid lines and labels of the value axis, at nice steps of the scale. */
export function ValueAxis({
  ticks,
  at,
  format,
}: {
  ticks: number[];
  at: (v: number) => number;
  format: (v: number) => string;
}) {
  return (
    <g aria-hidden="true">
      {ticks.map((v) => (
        <g key={v} transform={`translate(0,${at(v)})`}>
          <line x2={innerW} stroke="#e3e7ec" />
          <text x={-6} dy="0.32em" textAnchor="end" fontSize={11} fill="#444">
            {format(v)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** A category's label under the drawing, turned so long ones fit; cut to 15 characters (section 9). */
export function Label({ x, text }: { x: number; text: string }) {
  return (
    <text transform={`translate(${x},${innerH + 14}) rotate(30)`} fontSize={11} fill="#333" aria-hidden="true">
      {chartLabel(text)}
    </text>
  );
}
