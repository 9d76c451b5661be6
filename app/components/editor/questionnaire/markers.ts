/**
 * Image answer markers in the question modal (sections 5 and 9): positions are fractions 0..1 of the image's
 * width and height with 3 decimals, and a marker's centre stays at least 9 px inside the rendered image.
 */
import { DEFAULT_MARKER_POSITION, round3 } from "~/domain/editing";
import { answerText, type AnswerOption } from "~/domain/survey";

export const MARKER_MARGIN_PX = 9;
/** Arrow keys move a marker by this fraction; with Shift by the larger one. */
export const MARKER_STEP = 0.01;
export const MARKER_STEP_LARGE = 0.05;

export interface MarkerPosition {
  x: number;
  y: number;
}

/** The rendered image in CSS pixels; 0 while it is not laid out yet. */
export interface ImageBox {
  width: number;
  height: number;
}

/** The fractions a marker may take along one side of `length` px (3 decimals, rounded inwards). */
export function fractionBounds(length: number, margin = MARKER_MARGIN_PX): { min: number; max: number } {
  if (!(length > 0)) return { min: 0, max: 1 };
  const min = Math.ceil((margin / length) * 1000 - 1e-6) / 1000;
  const max = Math.floor((1 - margin / length) * 1000 + 1e-6) / 1000;
  // Too small an image for the margin on both sides: the middle.
  if (min > max) return { min: 0.5, max: 0.5 };
  return { min, max };
}

/** A fraction kept to 3 decimals and inside the bounds of a side of `length` px. */
export function clampFraction(value: number, length: number): number {
  const { min, max } = fractionBounds(length);
  const v = Number.isFinite(value) ? round3(value) : DEFAULT_MARKER_POSITION;
  return Math.min(max, Math.max(min, v));
}

export function clampMarker(position: MarkerPosition, box: ImageBox): MarkerPosition {
  return { x: clampFraction(position.x, box.width), y: clampFraction(position.y, box.height) };
}

/** Where a pointer at client coordinates puts a marker on an image drawn at `rect`. */
export function positionFromPointer(
  clientX: number,
  clientY: number,
  rect: { left: number; top: number; width: number; height: number },
): MarkerPosition {
  const x = rect.width > 0 ? (clientX - rect.left) / rect.width : DEFAULT_MARKER_POSITION;
  const y = rect.height > 0 ? (clientY - rect.top) / rect.height : DEFAULT_MARKER_POSITION;
  return clampMarker({ x, y }, rect);
}

/** The move an arrow key asks for (y grows downwards); null for other keys. */
export function keyboardStep(key: string, shift: boolean): { dx: number; dy: number } | null {
  const step = shift ? MARKER_STEP_LARGE : MARKER_STEP;
  switch (key) {
    case "ArrowLeft":
      return { dx: -step, dy: 0 };
    case "ArrowRight":
      return { dx: step, dy: 0 };
    case "ArrowUp":
      return { dx: 0, dy: -step };
    case "ArrowDown":
      return { dx: 0, dy: step };
    default:
      return null;
  }
}

/** The position after an arrow key, clamped; null when the key is not an arrow. */
export function moveByKey(position: MarkerPosition, key: string, shift: boolean, box: ImageBox): MarkerPosition | null {
  const step = keyboardStep(key, shift);
  if (!step) return null;
  return clampMarker({ x: position.x + step.dx, y: position.y + step.dy }, box);
}

/** A marker being edited; `key` names it in the form, `id` is the saved answer option's Id. */
export interface MarkerDraft extends MarkerPosition {
  key: number;
  id?: number;
  text: string;
}

/** A change of the marker list, applied to the latest list. */
export type MarkersUpdate = (update: (list: MarkerDraft[]) => MarkerDraft[]) => void;

/** The drafts for the saved answer options of an image question (no position yet: the default). */
export function markersFromOptions(options: readonly AnswerOption[]): MarkerDraft[] {
  return options.map((o, i) => ({
    key: i + 1,
    id: o.Id,
    text: answerText(o),
    x: o.X ?? DEFAULT_MARKER_POSITION,
    y: o.Y ?? DEFAULT_MARKER_POSITION,
  }));
}

/** Markers closer than this (centre to centre) cover each other's handle. */
export const MARKER_SPACING_PX = 32;

/**
 * Where a new marker goes when no place is given: the first free spot of a grid that starts at the default
 * position, row by row, so that new markers do not pile on one spot. A spot is free when no marker is
 * within MARKER_SPACING_PX (or 6 % of the side while the image is not laid out yet).
 */
export function freeSpot(list: readonly MarkerPosition[], box: ImageBox): MarkerPosition {
  const stepX = box.width > 0 ? Math.max(0.06, MARKER_SPACING_PX / box.width) : 0.08;
  const stepY = box.height > 0 ? Math.max(0.06, MARKER_SPACING_PX / box.height) : 0.08;
  const far = (a: MarkerPosition, b: MarkerPosition) =>
    box.width > 0 && box.height > 0
      ? Math.hypot((a.x - b.x) * box.width, (a.y - b.y) * box.height) >= MARKER_SPACING_PX
      : Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)) >= 0.06;
  for (let y = DEFAULT_MARKER_POSITION; y <= 1; y += stepY) {
    for (let x = DEFAULT_MARKER_POSITION; x <= 1; x += stepX) {
      const spot = clampMarker({ x, y }, box);
      if (list.every((m) => far(m, spot))) return spot;
    }
  }
  return clampMarker({ x: DEFAULT_MARKER_POSITION, y: DEFAULT_MARKER_POSITION }, box);
}

/**
 * Adds an untitled marker at `at` (a click on the image) or else at the first free spot, kept inside the
 * image; returns the list and its key.
 */
export function addMarker(
  list: readonly MarkerDraft[],
  box: ImageBox,
  at?: MarkerPosition,
): { list: MarkerDraft[]; key: number } {
  const key = list.reduce((max, m) => Math.max(max, m.key), 0) + 1;
  const position = at ? clampMarker(at, box) : freeSpot(list, box);
  return { list: [...list, { key, text: "", ...position }], key };
}

/** Answer options of a new image question. */
export function newMarkerOptions(list: readonly MarkerDraft[]): { Title: string; X: number; Y: number }[] {
  return list.map((m) => ({ Title: m.text.trim(), X: round3(m.x), Y: round3(m.y) }));
}

/**
 * The whole new list for PUT /questions/{id} (kept markers carry their Id, new ones none, left-out ones are
 * deleted by the server); null when no marker was added, removed, renamed or moved.
 */
export function editedMarkerOptions(
  initial: readonly MarkerDraft[],
  list: readonly MarkerDraft[],
): { Id?: number; Title: string; X: number; Y: number }[] | null {
  const before = new Map(initial.map((m) => [m.id, m]));
  const kept = list.filter((m) => m.id !== undefined);
  const changed =
    kept.length !== initial.length ||
    list.length !== kept.length ||
    kept.some((m, i) => {
      const old = before.get(m.id);
      return (
        !old ||
        initial[i]?.id !== m.id ||
        old.text.trim() !== m.text.trim() ||
        round3(old.x) !== round3(m.x) ||
        round3(old.y) !== round3(m.y)
      );
    });
  if (!changed) return null;
  return list.map((m) => ({
    ...(m.id !== undefined ? { Id: m.id } : {}),
    Title: m.text.trim(),
    X: round3(m.x),
    Y: round3(m.y),
  }));
}

/** A position as shown to people: 3 decimals. */
export const formatFraction = (value: number) => round3(value).toFixed(3);
