import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isShownByPreliminary } from "~/domain/visibility";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { demoSurveys } from "~/server/services/demo-data.server";
import { openLhcForms, type LhcForms } from "../support/lforms";
import { read, useStatisticsWorld, type Body } from "./statistics-support";
import { items, questionnaireFile } from "./fhir-items";

/**
 * The product's FHIR read by another implementation, LHC-Forms (tests/support/lforms.ts, decision 052): every
 * demo survey's Questionnaire renders there without an error; a question with a SHOW or HIDE rule is shown
 * or hidden there as the product shows or hides it; and a case's QuestionnaireResponse merged into its
 * Questionnaire gives every answer back. One browser for the file, on SQLite (the database is not what is
 * tested here).
 */

let idp: TestIdp;
let lforms: LhcForms;
beforeAll(async () => {
  [idp, lforms] = await Promise.all([createTestIdp(), openLhcForms()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([idp.dispose(), lforms?.close()]);
});

/** An answer as both sides state it: a coding by its code, other values as they are. */
function value(answer: Body): unknown {
  const [key, v] = Object.entries(answer).find(([k]) => k.startsWith("value"))!;
  if (key === "valueCoding") return { code: (v as Body).code };
  if (key === "valueDateTime") return { dateTime: new Date(v as string).toISOString() };
  if (key === "valueAttachment") return { title: (v as Body).title, contentType: (v as Body).contentType };
  return { [key]: v };
}

/** A value LHC-Forms holds, in the terms of `value`: a file by its title and type, a coding by its code. */
function lhcValue(held: unknown): unknown {
  const v = held as Body;
  if (v && typeof v === "object" && "contentType" in v) return { title: v.title, contentType: v.contentType };
  if (v && typeof v === "object" && "code" in v) return { code: v.code };
  return { value: v };
}

/** The answers of a response by linkId. */
function answersOf(response: Body): Map<string, unknown[]> {
  return new Map(items(response).flatMap((i) => (i.answer ? [[i.linkId, i.answer.map(value)]] : [])));
}

describe("LHC-Forms reads the product's FHIR", () => {
  const { world, fixture } = useStatisticsWorld("sqlite", () => idp);
  const questionnaireOf = async (id: number) =>
    read(await world().call("editor", "GET", `/surveys/${id}/fhir/questionnaire`));

  /** The demo surveys of the world's first seeding, and the test survey. */
  async function surveys(): Promise<number[]> {
    const demos = await world()
      .db.selectFrom("surveys")
      .select("id")
      .where(
        "title",
        "in",
        demoSurveys().map((d) => d.title),
      )
      .where("id", "<", world().b.heart)
      .execute();
    return [fixture().survey, ...demos.map((d) => d.id)];
  }

  it("renders every demo survey's Questionnaire without an error", async () => {
    const ids = await surveys();
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) {
      const q = await questionnaireOf(id);
      const held = await lforms.render(q);
      expect(lforms.errors(), `survey ${id}`).toEqual([]);
      // Every category (and the preliminary questions) is there, and every question without a condition.
      const unconditioned = items(q).filter((i) => i.type !== "display" && !i.enableWhen);
      expect(unconditioned.length, `survey ${id}`).toBeGreaterThan(0);
      for (const i of unconditioned) expect(held.shown, `survey ${id}: ${i.linkId}`).toContain(i.linkId);
    }
  });

  it("shows and hides a question with a SHOW or HIDE rule as the product does", async () => {
    const checked = new Set<string>();
    for (const id of await surveys()) {
      const survey = await read(await world().call("editor", "GET", `/surveys/${id}`));
      const withRule: Body[] = survey.Categories.flatMap((c: Body) => c.Questions).filter(
        (question: Body) => question.Dependence?.PreliminaryAnswerOptions.length,
      );
      if (withRule.length === 0) continue;
      const q = await questionnaireOf(id);
      const prelims = q.item.find((i: Body) => i.linkId === "preliminary").item;
      // Each answer of the preliminary questions the rules name, and none of them.
      const named = new Set(withRule.flatMap((question) => question.Dependence.PreliminaryAnswerOptions));
      const attributes = survey.PatientForm.filter((a: Body) => a.AnswerOptions.some((o: Body) => named.has(o.Id)));
      const choices: { attribute?: Body; option?: Body; n?: number }[] = [
        {},
        ...attributes.flatMap((attribute: Body) =>
          attribute.AnswerOptions.map((option: Body, n: number) => ({ attribute, option, n })),
        ),
      ];
      for (const { attribute, option, n } of choices) {
        const exported = attribute && prelims.find((p: Body) => p.linkId === `P${attribute.Id}`);
        const chosen = exported
          ? [{ linkId: exported.linkId, answer: [{ valueCoding: exported.answerOption[n!].valueCoding }] }]
          : [];
        const response = {
          resourceType: "QuestionnaireResponse",
          status: "in-progress",
          item: [{ linkId: "preliminary", item: chosen }],
        };
        const held = await lforms.render(q, chosen.length ? response : undefined);
        for (const question of withRule) {
          const product = isShownByPreliminary(question, option ? [option.Id] : []);
          const where = `survey ${id}, ${attribute ? `${attribute.Title} = ${option.Text}` : "no answer"}: ${question.Title}`;
          expect(held.shown.includes(`Q${question.Id}`), where).toBe(product);
          checked.add(`${question.Dependence.Type} ${product ? "shown" : "hidden"}`);
        }
      }
    }
    expect(lforms.errors()).toEqual([]);
    // The wound survey's HIDE rule and the test survey's SHOW rule, each seen hiding and showing.
    expect([...checked].sort()).toEqual(["HIDE hidden", "HIDE shown", "SHOW hidden", "SHOW shown"]);
  });

  it("holds every answer of a case's QuestionnaireResponse, and gives each back", async () => {
    const f = fixture();
    const q = await questionnaireOf(f.survey);
    const heldOnly: string[] = [];
    for (const patientId of ["P1", "P2", "P3", "P4", "P5", "P6", "OPEN"]) {
      const response = await read(
        await world().call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=${patientId}`),
      );
      const given = answersOf(response);
      expect(given.size, patientId).toBeGreaterThan(0);
      const held = await lforms.render(q, response);
      const back = answersOf(held.response);
      // Files of a question without an answer sit in its `item` (R4 allows items beneath a question there);
      // LHC-Forms holds them, but writes a question's items only inside an answer of it, so its
      // QuestionnaireResponse leaves them out: they are read from the form itself.
      const underUnanswered = new Set(
        items(response)
          .filter((i) => i.item && !i.answer && i.linkId.startsWith("Q"))
          .flatMap((i) => i.item.map((c: Body) => c.linkId)),
      );
      for (const [linkId, answers] of given) {
        if (!back.has(linkId) && underUnanswered.has(linkId)) {
          heldOnly.push(`${patientId} ${linkId}`);
          expect(held.values[linkId]?.map(lhcValue), `${patientId}: ${linkId}`).toEqual(answers);
        } else expect(back.get(linkId), `${patientId}: ${linkId}`).toEqual(answers);
      }
    }
    expect(heldOnly).toEqual([`P6 Q${f.q.notes}.files`]);
    expect(lforms.errors()).toEqual([]);
  });

  it("calculates the totals of PHQ-9 and of the GAD-7 written for the tests", async () => {
    for (const [name, total] of [
      ["phq9.json", "/44261-6"],
      ["gad7.json", "/70274-6"],
    ] as const) {
      const q = questionnaireFile(name);
      const scored = q.item.filter((i: Body) => i.answerOption?.[0].extension);
      // Answer n takes the option n modulo 4, scored 0, 1, 2, 3.
      const chosen = scored.map((i: Body, n: number) => ({
        linkId: i.linkId,
        answer: [{ valueCoding: i.answerOption[n % 4].valueCoding }],
      }));
      const expected = scored.reduce((sum: number, _: Body, n: number) => sum + (n % 4), 0);
      const held = await lforms.render(q, {
        resourceType: "QuestionnaireResponse",
        status: "in-progress",
        item: chosen,
      });
      expect(answersOf(held.response).get(total), name).toEqual([{ valueDecimal: expected }]);
    }
    expect(lforms.errors()).toEqual([]);
  });
});
