import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnswerOption } from "~/domain/survey";
import {
  addMarker,
  MARKER_SPACING_PX,
  clampFraction,
  clampMarker,
  editedMarkerOptions,
  formatFraction,
  fractionBounds,
  keyboardStep,
  markersFromOptions,
  moveByKey,
  newMarkerOptions,
  positionFromPointer,
  type MarkerDraft,
} from "./markers";

const box = { width: 400, height: 300 };

const option = (Id: number, Title: string, X: number | null, Y: number | null): AnswerOption => ({
  Id,
  QuestionId: 5,
  SurveyId: 1,
  Title,
  Value: null,
  IsExitAnswer: false,
  Weight: null,
  WeightingState: 2,
  Sort: 0,
  X,
  Y,
  Score: null,
  System: null,
  SubQuestions: [],
});

describe("fractionBounds", () => {
  it("keeps 9 px on each side, rounded inwards to 3 decimals", () => {
    expect(fractionBounds(900)).toEqual({ min: 0.01, max: 0.99 });
    // 9 / 400 = 0.0225 → 0.023; 1 - 0.0225 = 0.9775 → 0.977
    expect(fractionBounds(400)).toEqual({ min: 0.023, max: 0.977 });
  });
  it("puts a marker in the middle of an image too small for the margin", () => {
    expect(fractionBounds(12)).toEqual({ min: 0.5, max: 0.5 });
  });
  it("allows the whole range while the image has no size yet", () => {
    expect(fractionBounds(0)).toEqual({ min: 0, max: 1 });
  });
  it("always leaves at least 9 px between the centre and an edge", () => {
    fc.assert(
      fc.property(fc.integer({ min: 18, max: 5000 }), fc.double({ min: -1, max: 2, noNaN: true }), (px, v) => {
        const f = clampFraction(v, px);
        expect(f * px).toBeGreaterThanOrEqual(9 - 1e-9);
        expect(px - f * px).toBeGreaterThanOrEqual(9 - 1e-9);
        expect(Math.round(f * 1000) / 1000).toBe(f);
      }),
    );
  });
});

describe("clampMarker", () => {
  it("rounds to 3 decimals and clamps each axis by its own size", () => {
    expect(clampMarker({ x: 0.12345, y: 0.6789 }, box)).toEqual({ x: 0.123, y: 0.679 });
    expect(clampMarker({ x: -0.2, y: 1.4 }, box)).toEqual({ x: 0.023, y: 0.97 });
  });
  it("treats a non-number as the default position", () => {
    expect(clampMarker({ x: Number.NaN, y: 0.5 }, box)).toEqual({ x: 0.05, y: 0.5 });
  });
});

describe("positionFromPointer", () => {
  const rect = { left: 100, top: 50, width: 400, height: 300 };
  it("turns client coordinates into fractions of the image", () => {
    expect(positionFromPointer(300, 200, rect)).toEqual({ x: 0.5, y: 0.5 });
    expect(positionFromPointer(140, 80, rect)).toEqual({ x: 0.1, y: 0.1 });
  });
  it("keeps a marker dragged outside the image 9 px inside", () => {
    expect(positionFromPointer(0, 1000, rect)).toEqual({ x: 0.023, y: 0.97 });
  });
});

describe("keyboard", () => {
  it("steps 0.01, or 0.05 with Shift, and y grows downwards", () => {
    expect(keyboardStep("ArrowRight", false)).toEqual({ dx: 0.01, dy: 0 });
    expect(keyboardStep("ArrowLeft", true)).toEqual({ dx: -0.05, dy: 0 });
    expect(keyboardStep("ArrowUp", false)).toEqual({ dx: 0, dy: -0.01 });
    expect(keyboardStep("ArrowDown", true)).toEqual({ dx: 0, dy: 0.05 });
    expect(keyboardStep("Enter", false)).toBeNull();
  });
  it("moves without float noise and stops at the margin", () => {
    expect(moveByKey({ x: 0.05, y: 0.05 }, "ArrowRight", false, box)).toEqual({ x: 0.06, y: 0.05 });
    expect(moveByKey({ x: 0.3, y: 0.1 }, "ArrowDown", true, box)).toEqual({ x: 0.3, y: 0.15 });
    expect(moveByKey({ x: 0.03, y: 0.5 }, "ArrowLeft", true, box)).toEqual({ x: 0.023, y: 0.5 });
    expect(moveByKey({ x: 0.5, y: 0.5 }, "Tab", false, box)).toBeNull();
  });
});

describe("marker drafts", () => {
  it("starts from the saved options, the default position where none is stored", () => {
    expect(markersFromOptions([option(11, "Knie", 0.2, 0.8), option(12, "Hüfte", null, null)])).toEqual([
      { key: 1, id: 11, text: "Knie", x: 0.2, y: 0.8 },
      { key: 2, id: 12, text: "Hüfte", x: 0.05, y: 0.05 },
    ]);
  });
  it("reads a marker of a survey kept before markers had a Title by its Text", () => {
    const { Title: _title, ...kept } = option(11, "Knie", 0.2, 0.8);
    expect(markersFromOptions([{ ...kept, Text: "Knie" } as AnswerOption])[0].text).toBe("Knie");
  });
  it("adds an untitled marker at 0.05, 0.05 with a fresh key", () => {
    const first = addMarker([], { width: 0, height: 0 });
    expect(first).toEqual({ key: 1, list: [{ key: 1, text: "", x: 0.05, y: 0.05 }] });
    const second = addMarker([{ key: 4, text: "a", x: 0.5, y: 0.5 }], box);
    expect(second.key).toBe(5);
    expect(second.list[1]).toEqual({ key: 5, text: "", x: 0.05, y: 0.05 });
  });
  it("adds inside a small image's margin", () => {
    expect(addMarker([], { width: 100, height: 100 }).list[0]).toMatchObject({ x: 0.09, y: 0.09 });
  });
  it("puts each new marker on a free spot instead of on top of the last one", () => {
    const image = { width: 480, height: 320 };
    let list: MarkerDraft[] = [];
    for (let i = 0; i < 12; i++) list = addMarker(list, image).list;
    for (const [i, a] of list.entries()) {
      for (const b of list.slice(i + 1)) {
        const apart = Math.hypot((a.x - b.x) * image.width, (a.y - b.y) * image.height);
        expect(apart).toBeGreaterThanOrEqual(MARKER_SPACING_PX - 1);
      }
      expect(clampMarker(a, image)).toEqual({ x: a.x, y: a.y });
    }
  });
  it("adds a marker where the image was clicked, kept inside the margin", () => {
    const image = { width: 480, height: 320 };
    expect(addMarker([], image, { x: 0.75, y: 0.4 }).list[0]).toMatchObject({ x: 0.75, y: 0.4 });
    expect(addMarker([], image, { x: 0.999, y: 0 }).list[0]).toMatchObject({ x: 0.981, y: 0.029 });
  });
  it("builds the options of a new question", () => {
    expect(newMarkerOptions([{ key: 1, text: " Knie ", x: 0.12345, y: 0.5 }])).toEqual([
      { Title: "Knie", X: 0.123, Y: 0.5 },
    ]);
  });
});

describe("editedMarkerOptions", () => {
  const initial = markersFromOptions([option(11, "Knie", 0.2, 0.8), option(12, "Hüfte", 0.4, 0.4)]);
  it("is null when nothing changed (whitespace and float noise aside)", () => {
    expect(editedMarkerOptions(initial, initial)).toBeNull();
    const same = initial.map((m) => ({ ...m, text: ` ${m.text}`, x: m.x + 1e-7 }));
    expect(editedMarkerOptions(initial, same)).toBeNull();
  });
  it("sends the whole list when a marker moved or was renamed", () => {
    const moved = initial.map((m) => (m.id === 12 ? { ...m, x: 0.45 } : m));
    expect(editedMarkerOptions(initial, moved)).toEqual([
      { Id: 11, Title: "Knie", X: 0.2, Y: 0.8 },
      { Id: 12, Title: "Hüfte", X: 0.45, Y: 0.4 },
    ]);
    const renamed = initial.map((m) => (m.id === 11 ? { ...m, text: "Knie links" } : m));
    expect(editedMarkerOptions(initial, renamed)?.[0]).toEqual({ Id: 11, Title: "Knie links", X: 0.2, Y: 0.8 });
  });
  it("leaves a removed marker out and adds a new one without Id", () => {
    const next = [initial[1], { key: 9, text: "Fuß", x: 0.05, y: 0.05 }];
    expect(editedMarkerOptions(initial, next)).toEqual([
      { Id: 12, Title: "Hüfte", X: 0.4, Y: 0.4 },
      { Title: "Fuß", X: 0.05, Y: 0.05 },
    ]);
  });
});

describe("formatFraction", () => {
  it("shows 3 decimals", () => {
    expect(formatFraction(0.05)).toBe("0.050");
    expect(formatFraction(0.1 + 0.2)).toBe("0.300");
  });
});
