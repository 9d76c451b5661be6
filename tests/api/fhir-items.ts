import type { Body } from "./statistics-support";

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
