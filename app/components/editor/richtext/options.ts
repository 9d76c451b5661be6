/** Font sizes offered by the toolbar (CSS values the server keeps). */
export const FONT_SIZES: readonly string[] = ["12px", "14px", "16px", "18px", "20px", "24px", "28px", "32px"];

/** Font names offered by the toolbar: the CSS value, and the name shown in the list. */
export const FONT_FAMILIES: ReadonlyArray<{ value: string; name: string }> = [
  { value: "Arial, Helvetica, sans-serif", name: "Arial" },
  { value: "Verdana, Geneva, sans-serif", name: "Verdana" },
  { value: "Trebuchet MS, Helvetica, sans-serif", name: "Trebuchet MS" },
  { value: "Georgia, serif", name: "Georgia" },
  { value: "Times New Roman, Times, serif", name: "Times New Roman" },
  { value: "Courier New, Courier, monospace", name: "Courier New" },
];

/** Heading levels of the format list (h1 to h4, as the server keeps them). */
export const HEADING_LEVELS = [1, 2, 3, 4] as const;
export type HeadingLevel = (typeof HEADING_LEVELS)[number];

/** A font-family value as the browser may give it back (with quotes), matched to the toolbar's list. */
export function fontFamilyOption(value: string | null | undefined): string {
  if (!value) return "";
  const plain = value
    .replace(/["']/g, "")
    .replace(/\s*,\s*/g, ", ")
    .trim();
  return FONT_FAMILIES.find((f) => f.value === plain)?.value ?? "";
}
