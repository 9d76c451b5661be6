/** Section 9: the editor's colour palette, 60 colours in 10 columns (rows from light to dark). */
export const PALETTE_COLUMNS = 10;

// prettier-ignore
export const PALETTE: readonly string[] = Object.freeze([
  "#ffffff", "#fccfcf", "#fce4cf", "#fcf5cf", "#cffccf", "#cffcf5", "#cff1fc", "#cfdefc", "#e5cffc", "#fccfed",
  "#d9d9d9", "#f68e8e", "#f6be8e", "#f6e48e", "#8ef68e", "#8ef6e4", "#8edcf6", "#8eb0f6", "#c28ef6", "#f68ed3",
  "#a6a6a6", "#f04242", "#f09342", "#f0d342", "#42f042", "#42f0d3", "#42c4f0", "#427cf0", "#9942f0", "#f042b6",
  "#7f7f7f", "#d41111", "#d46c11", "#d4b411", "#11d411", "#11d4b4", "#11a4d4", "#1152d4", "#7311d4", "#d41193",
  "#404040", "#970c0c", "#974d0c", "#97800c", "#0c970c", "#0c9780", "#0c7497", "#0c3a97", "#520c97", "#970c69",
  "#000000", "#5e0808", "#5e3008", "#5e5008", "#085e08", "#085e50", "#08495e", "#08255e", "#33085e", "#5e0841",
]);

/** The hues of the palette's columns after the first, which holds the greys from white to black. */
const HUES = ["red", "orange", "yellow", "green", "teal", "skyBlue", "blue", "violet", "pink"] as const;
/** The rows' shades, light to dark; the grey column's own, whose ends are white and black. */
const SHADES = ["veryLight", "light", "medium", "strong", "dark", "veryDark"] as const;
const GREYS = ["white", "veryLight", "light", "medium", "dark", "black"] as const;

/**
 * A swatch's name in words, as locale keys under `richText.colours` (a hue and a shade, or white and black on
 * their own): a person who cannot see the swatch hears "Rot, kräftig", not "#d41111".
 */
export function colourWords(index: number, columns = PALETTE_COLUMNS): { hue: string; shade?: string } {
  const row = Math.floor(index / columns);
  const column = index % columns;
  if (column > 0) return { hue: HUES[column - 1], shade: SHADES[row] };
  const grey = GREYS[row];
  return grey === "white" || grey === "black" ? { hue: grey } : { hue: "grey", shade: grey };
}

/**
 * Where focus goes from swatch `index` on an arrow key in the grid (Home/End: start and end of the row);
 * the same index at an edge.
 */
export function paletteMove(index: number, key: string, count = PALETTE.length, columns = PALETTE_COLUMNS): number {
  const column = index % columns;
  switch (key) {
    case "ArrowRight":
      return column < columns - 1 && index + 1 < count ? index + 1 : index;
    case "ArrowLeft":
      return column > 0 ? index - 1 : index;
    case "ArrowDown":
      return index + columns < count ? index + columns : index;
    case "ArrowUp":
      return index - columns >= 0 ? index - columns : index;
    case "Home":
      return index - column;
    case "End":
      return Math.min(index - column + columns - 1, count - 1);
    default:
      return index;
  }
}

/** A colour as lower-case #rrggbb; "rgb(r, g, b)" as the browser may write it is converted. */
function hexOf(colour: string): string {
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(,\s*[\d.]+\s*)?\)$/i.exec(colour.trim());
  if (!rgb) return colour.trim().toLowerCase();
  return `#${rgb
    .slice(1, 4)
    .map((v) => Math.min(255, Number(v)).toString(16).padStart(2, "0"))
    .join("")}`;
}

/** The same colour, whatever the case or notation, so the toolbar can show which swatch is in use. */
export function sameColour(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && hexOf(a) === hexOf(b);
}
