import type { MoveKind } from "~/domain/moves";
import { answerOptionsApi } from "./answer-options";
import { categoriesApi } from "./categories";
import { patientAttributesApi } from "./patient-attributes";
import { questionsApi } from "./questions";

const reorders = {
  category: categoriesApi.reorder,
  question: questionsApi.reorder,
  answer: answerOptionsApi.reorder,
  attribute: patientAttributesApi.reorder,
  attributeAnswer: patientAttributesApi.reorderOption,
};

/** The API call that moves an item of the editor to a new position among its siblings (section 7). */
export function moveCall(kind: MoveKind, id: number, newPosition: number, surveyId: number) {
  return { contract: reorders[kind], request: { params: { id }, query: { newPosition, surveyId } } };
}
