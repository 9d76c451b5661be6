/** Questionnaires for the tests of an import's plan: a plan made of a resource, and an answer option. */
import { importPlan } from "./import-plan.server";
import { QuestionnaireSchema } from "./import-schema.server";

/** The plan of a resource, for an editor in English. */
export const plan = (resource: unknown) => importPlan(QuestionnaireSchema.parse(resource), "en-US");
/** An answer option of a code, its display the code in capitals. */
export const coding = (code: string) => ({ valueCoding: { code, display: code.toUpperCase() } });
