import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { compareWithExport } from "./fhir-instrument-support";
import { useFillWorld } from "./fill-support";
import { questionnaireFile } from "./fhir-items";
import { read, type Body } from "./statistics-support";

/**
 * Published instruments imported as they are (tests/api/fhir-questionnaires/README.md): LHC-Forms' PHQ-9, the
 * US Surgeon General family health portrait and the Hunger Vital Sign, and a GAD-7 written from its LOINC
 * panel. The preview lists each loss once, those that change what is asked first, in few lines; the questions
 * the survey holds keep their texts, codes, answer codes, systems and scores, help texts and conditions, and
 * the instrument its identity, item by item through an export; a calculated sum of the scores is the survey's
 * total, another calculation no question; a group that repeats is refused, said at the top.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const file = questionnaireFile;

/** The question types the import makes of the item types these instruments use. */
const TYPES: Record<string, string> = {
  choice: "SingleSelection",
  string: "FreeText",
  date: "DateTime",
  decimal: "Numerical",
};

/** A question as the file states it: its text, its type, and each answer's code and text. */
const stated = (item: Body) => ({
  Title: item.text,
  Type: TYPES[item.type],
  Options: (item.answerOption ?? []).map((o: Body) => [o.valueCoding.code, o.valueCoding.display]),
});

/** A question of the survey in the same terms. */
const held = (q: Body) => ({
  Title: q.Title,
  Type: q.Type,
  Options: q.AnswerOptions.map((o: Body) => [o.Value, o.Text]),
});

const isCalculated = (item: Body) =>
  (item.extension ?? []).some((e: Body) => e.url.endsWith("/sdc-questionnaire-calculatedExpression"));

describe.each(dialects)("published FHIR instruments on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);

  /** The preview's list, held to what any list must be: short, each line once, no addresses. */
  async function preview(resource: Body, most: number): Promise<{ preview: Body; lines: string[] }> {
    const answer = await read(await world().call("editor", "POST", "/surveys/fhir-import?preview=true", resource));
    const lines: string[] = answer.NotKept;
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(most);
    expect(new Set(lines).size).toBe(lines.length);
    for (const line of lines) expect(line).not.toMatch(/https?:/);
    return { preview: answer, lines };
  }

  /** The survey made of a resource, after its export was compared with the resource item by item. */
  async function imported(resource: Body, lines: string[]): Promise<Body> {
    const made = await read(await world().call("editor", "POST", "/surveys/fhir-import", resource), 201);
    const survey = await read(await world().call("editor", "GET", `/surveys/${made.SurveyId}`));
    // The list is not the survey's description: the people who fill it read that.
    expect(survey.Description ?? "").toBe(resource.description ?? "");
    const exported = await read(await world().call("editor", "GET", `/surveys/${made.SurveyId}/fhir/questionnaire`));
    expectValidR4(exported);
    compareWithExport(resource, exported, lines);
    return survey;
  }

  /** An instrument of scored choices, a calculated total and a difficulty question, as PHQ-9 and GAD-7 are. */
  async function scored(name: string, problems: number, total: string) {
    const resource = file(name);
    const { preview: p, lines } = await preview(resource, 8);
    // The calculated total is the survey's total now, no loss; nor are scores, codes or identity.
    expect(lines.join("\n")).not.toMatch(/berechnet|Antwortwert|Codes/);
    // Required answers first, what only changes the looks after.
    const required = lines.findIndex((l) => l.includes("als Pflichtfragen markiert"));
    const dropDown = lines.findIndex((l) => l.includes("Anzeige als Aufklappliste"));
    expect(required).toBe(0);
    expect(required).toBeLessThan(dropDown);
    expect(p).toMatchObject({ Categories: 1, Questions: problems + 1, PreliminaryQuestions: 0 });

    const survey = await imported(resource, lines);
    const questions = survey.Categories.flatMap((c: Body) => c.Questions);
    const expected = resource.item.filter((i: Body) => i.type === "choice").map(stated);
    expect(expected).toHaveLength(problems + 1);
    expect(questions.map(held)).toEqual(expected);
    for (const q of questions) expect(q.Title).not.toBe(total);
    // Every answer kept with its LOINC code and its text.
    expect(questions[0].AnswerOptions.map((o: Body) => [o.Value, o.Text])).toEqual([
      ["LA6568-5", "Not at all"],
      ["LA6569-3", "Several days"],
      ["LA6570-1", "More than half the days"],
      ["LA6571-9", "Nearly every day"],
    ]);
    expect(questions.at(-1).Title).toMatch(/^How difficult have these problems made it for you/);
    const calculated = resource.item.find(isCalculated);
    expect(calculated.text).toBe(total);
    // Scores 0 to 3 on every problem, no test question; the difficulty question unscored; the total computed.
    for (const q of questions.slice(0, problems)) {
      expect(q.AnswerOptions.map((o: Body) => [o.Score, o.System, o.WeightingState])).toEqual(
        [0, 1, 2, 3].map((score) => [score, "http://loinc.org", 2]),
      );
      expect(q.IsTestQuestion).toBe(false);
    }
    expect(questions.at(-1).AnswerOptions.map((o: Body) => o.Score)).toEqual([null, null, null, null]);
    expect(survey.ScoreTitle).toBe(total);
    expect(survey.Instrument).toEqual({
      Name: resource.name,
      Identifier: [{ System: "http://loinc.org", Value: resource.identifier[0].value }],
      Date: null,
      SubjectType: ["Patient", "Person"],
      Codes: [{ System: "http://loinc.org", Code: resource.code[0].code, Display: resource.code[0].display }],
      Copyright: null,
      ScoreCodes: [{ System: "http://loinc.org", Code: calculated.code[0].code, Display: calculated.code[0].display }],
    });
    return { survey, lines };
  }

  it("PHQ-9: nine scored questions and the difficulty question; the total is the survey's, not asked", async () => {
    const { survey, lines } = await scored("phq9.json", 9, "Patient health questionnaire 9 item total score");
    expect(survey.Instrument.Identifier).toEqual([{ System: "http://loinc.org", Value: "44249-1" }]);
    // Was 9 lines, scores, codes and the calculated total among them; what the total item carries besides its
    // calculation (its scoring notes, its unit) is said on one line.
    expect(lines).toEqual([
      "8 Fragen sind als Pflichtfragen markiert; Pflichtantworten werden nicht erzwungen.",
      "9 Fragen: Antwort-Präfixe (0, 1, 2 …) nicht übernommen.",
      "10 Fragen: Anzeige als Aufklappliste nicht übernommen.",
      "10 Fragen: Zeitraum für übernommene Beobachtungen nicht übernommen.",
      "1 Frage: Anzeigekategorie nicht übernommen.",
      "Die Gesamtpunktzahl „Patient health questionnaire 9 item total score“: Anzeigekategorie, Einheit, " +
        "Zeitraum für übernommene Beobachtungen nicht übernommen.",
    ]);
  });

  it("GAD-7: seven scored questions and the difficulty question; the total is the survey's, not asked", async () => {
    const gad7 = file("gad7.json");
    expectValidR4(gad7);
    expect(gad7.item.map((i: Body) => i.code[0].code)).toEqual([
      "69725-0",
      "68509-9",
      "69733-4",
      "69734-2",
      "69735-9",
      "69689-8",
      "69736-7",
      "70274-6",
      "69726-8",
    ]);
    const { lines } = await scored("gad7.json", 7, "GAD-7 total score");
    expect(lines).toEqual([
      "7 Fragen sind als Pflichtfragen markiert; Pflichtantworten werden nicht erzwungen.",
      "7 Fragen: Antwort-Präfixe (0, 1, 2 …) nicht übernommen.",
      "8 Fragen: Anzeige als Aufklappliste nicht übernommen.",
      "Die Gesamtpunktzahl „GAD-7 total score“: Einheit nicht übernommen.",
    ]);
  });

  it("Hunger Vital Sign: its two questions; the risk it calculates is no question", async () => {
    const resource = file("hunger-vital-signs.json");
    const { preview: p, lines } = await preview(resource, 5);
    // Its risk is no sum of scores: still not held, said first. Its items are not required: nothing about
    // required answers is said. Was 4 lines, codes among them.
    expect(lines).toEqual([
      "1 berechnetes Element wird nicht übernommen (eine Umfrage rechnet nicht): „Food insecurity risk“",
      "2 Fragen: Anzeige als Aufklappliste nicht übernommen.",
    ]);
    expect(p).toMatchObject({ Categories: 1, Questions: 2 });
    const survey = await imported(resource, lines);
    expect(survey.ScoreTitle).toBeNull();
    expect(survey.Instrument).toEqual({
      Name: null,
      Identifier: [],
      Date: null,
      SubjectType: ["Person"],
      Codes: [{ System: null, Code: "88121-9", Display: "Hunger Vital Sign [HVS]" }],
      Copyright: null,
    });
    const questions = survey.Categories.flatMap((c: Body) => c.Questions);
    const asked = resource.item.filter((i: Body) => i.type === "choice" && !isCalculated(i));
    expect(asked).toHaveLength(2);
    expect(questions.map(held)).toEqual(asked.map(stated));
    expect(questions.map((q: Body) => q.Title)).not.toContain("Food insecurity risk");
  });

  it("the family health portrait: its repeating groups refused at the top, its other items imported", async () => {
    const resource = file("ussg-fhp.json");
    const { preview: p, lines } = await preview(resource, 8);
    expect(lines.slice(0, 2)).toEqual([
      "Die Gruppe „Diseases history panel“ wiederholt sich (ein Block je Eintrag); Wiederholungen kann eine " +
        "Umfrage nicht abbilden: Die Gruppe und ihre 2 Fragen werden nicht importiert.",
      "Die Gruppe „Family member health history“ wiederholt sich (ein Block je Eintrag); Wiederholungen kann " +
        "eine Umfrage nicht abbilden: Die Gruppe und ihre 15 Fragen werden nicht importiert.",
    ]);
    expect(lines.filter((l) => l.includes("Pflicht"))).toEqual([]);
    // Was 12 lines: codes of the questionnaire, a group and ten questions, and two help texts are kept now.
    expect(lines.join("\n")).not.toMatch(/Codes|Hilfetext/);
    expect(p).toMatchObject({ Categories: 1, Questions: 10 });

    const survey = await imported(resource, lines);
    expect(survey.Instrument).toMatchObject({
      Name: "US Surgeon General family health portrait",
      Identifier: [{ System: "http://loinc.org", Value: "54127-6" }],
      Date: "2018-11-05T16:54:56-05:00",
    });
    expect(survey.Categories[0].Codes).toEqual([
      { System: "http://loinc.org", Code: "54126-8", Display: "My health history" },
    ]);
    // The help texts under Name and Gender are their hints (the second's markup as the text it is).
    const hints = survey.Categories[0].Questions.filter((q: Body) => q.Hint).map((q: Body) => [q.Title, q.Hint]);
    expect(hints).toEqual([
      ["Name", "A plain text instruction on Name"],
      ["Gender", expect.stringContaining("<code>Text</code> instructions") as string],
    ]);
    expect(survey.Categories.map((c: Body) => c.Title)).toEqual(["My health history"]);
    const [mine, family] = resource.item;
    expect(family.repeats).toBe(true);
    const asked = mine.item.filter((i: Body) => i.type !== "group" && i.type !== "display");
    expect(asked).toHaveLength(10);
    expect(survey.Categories[0].Questions.map(held)).toEqual(asked.map(stated));
    // Nothing of a relative's block: it would be asked once, for one relative.
    const titles = survey.Categories[0].Questions.map((q: Body) => q.Title);
    expect(titles).not.toContain("Relationship to patient");
    expect(titles).not.toContain("History of diseases");
  });
});
