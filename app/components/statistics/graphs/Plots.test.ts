import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarChart, BoxPlot, LineChart, RadarChart, ScatterPlot } from "./Plots";

function svg<P extends object>(component: (props: P) => ReactElement, props: P) {
  return new Markup(renderToStaticMarkup(createElement(component, props)));
}

/** Just enough of the markup to read the drawing: elements by tag with their attributes, and texts. */
class Markup {
  constructor(readonly html: string) {}
  all(tag: string) {
    return [...this.html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "g"))].map((m) =>
      Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
    );
  }
  texts() {
    return [...this.html.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  }
}

const points = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `Tag ${i + 1}`, value: i + 1 }));
// The drawing area: 276 high with 30 above and 74 below, so values run from y = 172 (zero) up to y = 0.
const BOTTOM = 172;

describe("line chart", () => {
  it("is an image with its label and writes every label up to 10 categories", () => {
    const d = svg(LineChart, { points: points(10), label: "Punktzahlen: 10 Werte" });
    expect(d.all("svg")[0]).toMatchObject({ role: "img", "aria-label": "Punktzahlen: 10 Werte" });
    expect(d.all("circle")).toHaveLength(10);
    expect(d.texts().filter((t) => t.startsWith("Tag"))).toHaveLength(10);
  });
  it("writes every 5th label above 10 categories", () => {
    const d = svg(LineChart, { points: points(12), label: "x" });
    expect(d.all("circle")).toHaveLength(12);
    expect(d.texts().filter((t) => t.startsWith("Tag"))).toEqual(["Tag 1", "Tag 6", "Tag 11"]);
  });
  it("places the largest value highest and spreads the points evenly from left to right", () => {
    const d = svg(LineChart, {
      points: [
        { label: "a", value: 0 },
        { label: "b", value: 4 },
        { label: "c", value: 2 },
      ],
      label: "x",
    });
    const c = d.all("circle").map((p) => ({ x: Number(p.cx), y: Number(p.cy) }));
    expect(c[0].y).toBeCloseTo(BOTTOM);
    expect(c[1].y).toBeLessThan(c[2].y);
    expect(c[2].y).toBeLessThan(c[0].y);
    expect(c[1].x - c[0].x).toBeCloseTo(c[2].x - c[1].x);
  });
  it("cuts long labels to 15 characters", () => {
    const d = svg(LineChart, { points: [{ label: "Ein sehr langer Patientenname", value: 1 }], label: "x" });
    expect(d.texts()).toContain("Ein sehr lange…");
  });
});

describe("bar chart", () => {
  it("draws one bar per point, its height proportional to the value from zero", () => {
    const d = svg(BarChart, {
      points: [
        { label: "Q1", value: 10 },
        { label: "Q2", value: 5 },
        { label: "Q3", value: 0 },
      ],
      label: "x",
    });
    const bars = d.all("rect").map((r) => ({ y: Number(r.y), h: Number(r.height) }));
    expect(bars).toHaveLength(3);
    expect(bars[0].h).toBeCloseTo(2 * bars[1].h);
    expect(bars[2].h).toBe(0);
    for (const b of bars) expect(b.y + b.h).toBeCloseTo(BOTTOM);
    expect(d.texts()).toEqual(expect.arrayContaining(["Q1", "Q2", "Q3"]));
  });
  it("still has an axis when every value is zero", () => {
    const d = svg(BarChart, { points: [{ label: "Q1", value: 0 }], label: "x" });
    expect(d.texts()).toContain("1");
  });
});

describe("box plot and radar", () => {
  it("orders a box's whiskers, quartiles and median from top to bottom", () => {
    const d = svg(BoxPlot, { boxes: [{ label: "ja", min: 1, q1: 2, median: 3, q3: 4, max: 8 }], label: "x" });
    const box = d.all("rect")[0];
    const lines = d.all("line").filter((l) => l["stroke-width"] === "3");
    expect(lines).toHaveLength(1);
    const median = Number(lines[0].y1);
    expect(Number(box.y)).toBeLessThan(median);
    expect(Number(box.y) + Number(box.height)).toBeGreaterThan(median);
  });
  it("draws one spoke per category and the actual score as a share of the maximum", () => {
    const d = svg(RadarChart, {
      axes: [
        { label: "A", actual: 1, max: 2 },
        { label: "B", actual: 2, max: 2 },
        { label: "C", actual: 0, max: 0 },
        { label: "D", actual: 5, max: 2 },
      ],
      label: "x",
    });
    expect(d.all("line")).toHaveLength(4);
    const [outline, shares] = d.all("polygon").map((p) => p.points.split(" ").map((xy) => xy.split(",").map(Number)));
    const length = ([x, y]: number[]) => Math.hypot(x, y);
    expect(length(shares[0]) / length(outline[0])).toBeCloseTo(0.5);
    expect(length(shares[1]) / length(outline[1])).toBeCloseTo(1);
    expect(length(shares[2])).toBeCloseTo(0);
    // A score above its maximum stays on the outline.
    expect(length(shares[3]) / length(outline[3])).toBeCloseTo(1);
  });
});

describe("axes", () => {
  it("write their titles, with units, beside and under the drawing", () => {
    const d = svg(BarChart, {
      points: [{ label: "akut", value: 3 }],
      label: "x",
      axes: { x: "Art der Wunde", y: "Abgeschlossene Befragungen (Anzahl)" },
    });
    expect(d.texts()).toEqual(expect.arrayContaining(["Art der Wunde", "Abgeschlossene Befragungen (Anzahl)"]));
  });
  it("write decimals with a comma in German and a point in English", () => {
    const halves = { points: [{ label: "a", value: 1.5 }], label: "x" };
    expect(svg(BarChart, { ...halves, locale: "de-DE" }).texts()).toContain("0,5");
    expect(svg(BarChart, { ...halves, locale: "en-US" }).texts()).toContain("0.5");
    expect(
      svg(BoxPlot, {
        boxes: [{ label: "a", min: 0, q1: 0.5, median: 1, q3: 1, max: 1.5 }],
        label: "x",
        locale: "de-DE",
      }).texts(),
    ).toContain("0,5");
  });
});

describe("scatter plot", () => {
  const cases = [
    { x: 0.5, y: 2 },
    { x: 10, y: 8 },
    { x: 40, y: 0 },
  ];
  it("draws a point per case and nothing joining them", () => {
    const d = svg(ScatterPlot, { points: cases, dates: false, label: "Zahlenbereich: 3 Werte" });
    expect(d.all("svg")[0]).toMatchObject({ role: "img", "aria-label": "Zahlenbereich: 3 Werte" });
    expect(d.all("circle")).toHaveLength(3);
    expect(d.all("path")).toHaveLength(0);
    expect(d.all("polyline")).toHaveLength(0);
  });
  it("places the points by their values on both axes", () => {
    const d = svg(ScatterPlot, { points: cases, dates: false, label: "x" });
    const c = d.all("circle").map((p) => ({ x: Number(p.cx), y: Number(p.cy) }));
    // Horizontally in proportion to the first values (9.5 and 30 apart), upwards with the second.
    expect((c[1].x - c[0].x) / (c[2].x - c[1].x)).toBeCloseTo(9.5 / 30);
    expect(c[1].y).toBeLessThan(c[0].y);
    expect(c[0].y).toBeLessThan(c[2].y);
  });
  it("writes the ticks of date-times as dates, and numbers in the interface's language", () => {
    const day = (d: number) => Date.UTC(2026, 2, d, 9, 30);
    const dates = svg(ScatterPlot, {
      points: [
        { x: day(1), y: day(2) },
        { x: day(20), y: day(28) },
      ],
      dates: true,
      label: "x",
    });
    expect(dates.texts().some((t) => /^\d{2}\.\d{2}\.2026$/.test(t))).toBe(true);
    const numbers = svg(ScatterPlot, {
      points: [
        { x: 0.5, y: 1 },
        { x: 2, y: 2.5 },
      ],
      dates: false,
      label: "x",
      locale: "de-DE",
    });
    expect(numbers.texts()).toEqual(expect.arrayContaining(["0,5", "1,5"]));
  });
});
