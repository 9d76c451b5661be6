/** The API call that moves an item of the editor to a new position among its siblings (section 7). */
export const moveKinds = ["category", "question", "answer", "attribute", "attributeAnswer"] as const;
export type MoveKind = (typeof moveKinds)[number];

export function isMoveKind(value: unknown): value is MoveKind {
  return typeof value === "string" && (moveKinds as readonly string[]).includes(value);
}

export function movePath(kind: MoveKind, id: number, newPosition: number, surveyId: number): string {
  const q = `?newPosition=${newPosition}&surveyId=${surveyId}`;
  switch (kind) {
    case "category":
      return `/categories/${id}/reorder${q}`;
    case "question":
      return `/questions/reorder/${id}${q}`;
    case "answer":
      return `/answer-options/${id}/reorder${q}`;
    case "attribute":
      return `/patient-attributes/reorder/${id}${q}`;
    case "attributeAnswer":
      return `/patient-attributes/answer-options/reorder/${id}${q}`;
  }
}
