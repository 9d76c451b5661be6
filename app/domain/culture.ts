/** The interface languages (section 9). Free of zod, so pages can use it without loading a schema library. */
export const cultures = ["de-DE", "en-US"] as const;
export type Culture = (typeof cultures)[number];
export const defaultCulture: Culture = "de-DE";

export function isCulture(value: unknown): value is Culture {
  return typeof value === "string" && (cultures as readonly string[]).includes(value);
}
