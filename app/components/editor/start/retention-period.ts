import { RETENTION_MONTHS_MAX } from "~/domain/survey";

/**
 * The retention period as the start tab shows it (docs/decisions/042-retention-and-erasure.md): none, or a whole
 * number of months or years; stored as months. Free of React, tested on its own.
 */

export type Unit = "none" | "months" | "years";

export interface Shown {
  unit: Unit;
  /** The amount as typed. */
  amount: string;
}

/** How a stored period shows: whole years as years, else months; 0 as none. */
export function shownAs(months: number): Shown {
  if (months <= 0) return { unit: "none", amount: "" };
  return months % 12 === 0
    ? { unit: "years", amount: String(months / 12) }
    : { unit: "months", amount: String(months) };
}

/** A period in the unit shown where that unit can say it (the person keeps the unit they chose), else as shownAs. */
export function shownIn(unit: Unit, months: number): Shown {
  if (months > 0 && unit === "months") return { unit, amount: String(months) };
  if (months > 0 && unit === "years" && months % 12 === 0) return { unit, amount: String(months / 12) };
  return shownAs(months);
}

/** The period in months (0 for none); null while the amount is empty or no whole number in range. */
export function monthsOf({ unit, amount }: Shown): number | null {
  if (unit === "none") return 0;
  if (!/^\d{1,4}$/.test(amount.trim())) return null;
  const months = Number(amount) * (unit === "years" ? 12 : 1);
  return months >= 1 && months <= RETENTION_MONTHS_MAX ? months : null;
}

/** What the field says about its amount: nothing, that one is needed, or that it is no valid one. */
export function amountState(shown: Shown): "ok" | "needed" | "invalid" {
  if (shown.unit === "none") return "ok";
  if (shown.amount.trim() === "") return "needed";
  return monthsOf(shown) === null ? "invalid" : "ok";
}

/**
 * Another unit chosen: the same period in it where it can be said there (24 months are 2 years, 2 years 24
 * months), so that choosing a unit never changes the period by itself. A period that the new unit cannot say
 * (18 months in years) leaves the amount empty, and `notWhole` names the months that stay saved until the person
 * gives one; a unit chosen after none leaves the amount empty too (nothing is filled in for them).
 */
export function switchUnit(shown: Shown, unit: Unit): { shown: Shown; notWhole?: number } {
  if (unit === shown.unit) return { shown };
  if (unit === "none") return { shown: { unit, amount: "" } };
  const months = monthsOf(shown);
  if (shown.unit === "none" || months === null)
    return { shown: { unit, amount: shown.unit === "none" ? "" : shown.amount } };
  if (unit === "months") return { shown: { unit, amount: String(months) } };
  return months % 12 === 0
    ? { shown: { unit, amount: String(months / 12) } }
    : { shown: { unit, amount: "" }, notWhole: months };
}

/** A period shorter than the saved one (none is the longest): it erases sooner, so it is said before it is saved. */
export function shortens(next: number, saved: number): boolean {
  return next > 0 && (saved <= 0 || next < saved);
}
