/** What the editor moves among its siblings (app/contracts/moves.ts names the API call of each). */
export const moveKinds = ["category", "question", "answer", "attribute", "attributeAnswer"] as const;
export type MoveKind = (typeof moveKinds)[number];

export function isMoveKind(value: unknown): value is MoveKind {
  return typeof value === "string" && (moveKinds as readonly string[]).includes(value);
}
