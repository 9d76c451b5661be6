import { AppError } from "~/domain/errors";
import { moveTo } from "~/domain/editing";
import type { Trx } from "~/server/db/types.server";

/** Tables whose rows are ordered by a dense `sort` among their siblings. */
export type SortedTable =
  "categories" | "questions" | "answer_options" | "patient_form_attributes" | "patient_form_answer_options";

export interface Sibling {
  id: number;
  sort: number;
}

/** The sort of an item appended after its siblings. */
export function nextSort(siblings: readonly Sibling[]): number {
  return siblings.reduce((max, s) => Math.max(max, s.sort + 1), 0);
}

/** Gives each listed row its position as sort, writing only rows whose sort differs; true when any did. */
export async function writeOrder(trx: Trx, table: SortedTable, order: readonly Sibling[]): Promise<boolean> {
  let wrote = false;
  for (const [position, row] of order.entries()) {
    if (row.sort === position) continue;
    await trx.updateTable(table).set({ sort: position }).where("id", "=", row.id).execute();
    wrote = true;
  }
  return wrote;
}

/**
 * Moves one item to the 0-based newPosition among its siblings (given in their current order) and rewrites
 * the sort of all of them densely. Null when nothing had to be written.
 */
export async function moveAmongSiblings(
  trx: Trx,
  table: SortedTable,
  siblings: readonly Sibling[],
  itemId: number,
  newPosition: number,
): Promise<{ before: number[]; after: number[] } | null> {
  const next = moveTo(
    siblings,
    siblings.findIndex((s) => s.id === itemId),
    newPosition,
  );
  if (!next) {
    throw new AppError("VALIDATION_ERROR", `newPosition must be between 0 and ${siblings.length - 1}`);
  }
  const wrote = await writeOrder(trx, table, next);
  return wrote ? { before: siblings.map((s) => s.id), after: next.map((s) => s.id) } : null;
}
