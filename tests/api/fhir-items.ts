import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Body } from "./statistics-support";

/** A Questionnaire of tests/api/fhir-questionnaires (README.md there says where each comes from). */
export function questionnaireFile(name: string): Body {
  return JSON.parse(readFileSync(join(import.meta.dirname, "fhir-questionnaires", name), "utf8")) as Body;
}

/** Every item of a Questionnaire or QuestionnaireResponse, nested ones and those inside answers included. */
export function items(resource: Body): Body[] {
  const out: Body[] = [];
  const walk = (list: Body[] | undefined) => {
    for (const i of list ?? []) {
      out.push(i);
      walk(i.item);
      for (const a of i.answer ?? []) walk(a.item);
    }
  };
  walk(resource.item);
  return out;
}
