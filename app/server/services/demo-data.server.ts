import crypto from "node:crypto";
import { questionTypeCode, type QuestionType } from "~/domain/question-types";
import type { DB } from "~/server/db/types.server";
import { audit } from "./audit.server";
import { seedDemoCases, type NumberRange } from "./demo-cases.server";
import type { Executor } from "./survey-access.server";

/** The demo surveys a new installation starts with, in German and English, in different states. */

interface DemoOption {
  text: string;
  exit?: boolean;
  weight?: number;
  correct?: boolean;
  sub?: DemoQuestion[];
}
interface DemoQuestion {
  title: string;
  type: QuestionType;
  unit?: string;
  /** A number question's plausible answers for the demo cases. */
  range?: NumberRange;
  test?: boolean;
  attachments?: boolean;
  options?: DemoOption[];
  /** Shown only when this preliminary answer (by text) was chosen. */
  showIf?: string;
}
interface DemoSurvey {
  title: string;
  description: string;
  status: 1 | 2 | 4;
  start: string | null;
  end: string | null;
  target: number;
  intro: string;
  outro: string;
  autoId: boolean;
  preliminary: { title: string; options: string[] }[];
  categories: { title: string; questions: DemoQuestion[] }[];
}

const yesNo = (sub?: DemoQuestion[]): DemoOption[] => [{ text: "Ja", sub }, { text: "Nein" }];

function year(offset: number) {
  return new Date().getUTCFullYear() + offset;
}

export function demoSurveys(): DemoSurvey[] {
  return [
    {
      title: "Herzinsuffizienz – Verlaufsbogen",
      description: "Strukturierte Verlaufskontrolle für Patientinnen und Patienten mit Herzinsuffizienz.",
      status: 2,
      start: `${year(0)}-01-01`,
      end: `${year(1)}-12-31`,
      target: 250,
      intro: "<p>Bitte beantworten Sie die Fragen gemeinsam mit der Patientin oder dem Patienten.</p>",
      outro: "<p>Vielen Dank für Ihre Angaben.</p>",
      autoId: false,
      preliminary: [
        { title: "Geschlecht", options: ["weiblich", "männlich", "divers"] },
        { title: "Altersgruppe", options: ["unter 65", "65 bis 79", "80 und älter"] },
      ],
      categories: [
        {
          title: "Beschwerden",
          questions: [
            {
              title: "Wie stark ist die Atemnot bei Belastung?",
              type: "SingleSelection",
              options: [{ text: "keine" }, { text: "leicht" }, { text: "mittel" }, { text: "stark" }],
            },
            {
              title: "Haben Sie Wassereinlagerungen bemerkt?",
              type: "SingleSelection",
              options: yesNo([
                {
                  title: "Wo genau?",
                  type: "MultipleSelection",
                  options: [{ text: "Knöchel" }, { text: "Unterschenkel" }, { text: "Bauch" }],
                },
              ]),
            },
            { title: "Schwangerschaft ausgeschlossen?", type: "SingleSelection", options: yesNo(), showIf: "weiblich" },
            { title: "Weitere Beschwerden", type: "FreeText" },
          ],
        },
        {
          title: "Messwerte",
          questions: [
            { title: "Körpergewicht", type: "Numerical", unit: "kg", range: { min: 48, max: 115, step: 0.1 } },
            {
              title: "Systolischer Blutdruck",
              type: "Numerical",
              unit: "mmHg",
              range: { min: 95, max: 175, step: 1 },
            },
            { title: "Zeitpunkt der Messung", type: "DateTime", attachments: true },
          ],
        },
        {
          title: "Wissen",
          questions: [
            {
              title: "Ab welcher Gewichtszunahme sollte die Praxis informiert werden?",
              type: "SingleSelection",
              test: true,
              options: [
                { text: "1 kg in 3 Tagen" },
                { text: "2 kg in 3 Tagen", correct: true, weight: 2 },
                { text: "5 kg in einer Woche" },
              ],
            },
          ],
        },
      ],
    },
    {
      title: "Post-operative Pain Assessment",
      description: "Pain and recovery after elective surgery, first three days.",
      status: 2,
      start: `${year(0)}-01-01`,
      end: null,
      target: 120,
      intro: "<p>Please ask the patient the following questions.</p>",
      outro: "",
      autoId: true,
      preliminary: [],
      categories: [
        {
          title: "Pain",
          questions: [
            { title: "Pain at rest (0–10)", type: "Numerical", range: { min: 0, max: 10, step: 1 } },
            {
              title: "Which analgesics were given?",
              type: "MultipleSelection",
              options: [{ text: "Metamizole" }, { text: "Ibuprofen" }, { text: "Opioid" }, { text: "None" }],
            },
            {
              title: "Patient wishes to stop the assessment",
              type: "SingleSelection",
              options: [{ text: "Continue" }, { text: "Stop now", exit: true }],
            },
          ],
        },
      ],
    },
    {
      title: "Patientenzufriedenheit Station 3A",
      description: "Entwurf der Zufriedenheitsbefragung.",
      status: 1,
      start: null,
      end: null,
      target: 0,
      intro: "",
      outro: "",
      autoId: true,
      preliminary: [],
      categories: [
        {
          title: "Aufenthalt",
          questions: [
            {
              title: "Wie zufrieden waren Sie insgesamt?",
              type: "SingleSelection",
              options: [{ text: "sehr zufrieden" }, { text: "zufrieden" }, { text: "unzufrieden" }],
            },
          ],
        },
      ],
    },
    {
      title: "Sturzrisiko-Screening",
      description: "Abgeschlossene Erhebung des Vorjahres.",
      status: 2,
      start: `${year(-1)}-01-01`,
      end: `${year(-1)}-12-31`,
      target: 80,
      intro: "",
      outro: "",
      autoId: false,
      preliminary: [],
      categories: [
        {
          title: "Screening",
          questions: [{ title: "Sturz in den letzten 12 Monaten?", type: "SingleSelection", options: yesNo() }],
        },
      ],
    },
    {
      title: "Medikationsabgleich (alt)",
      description: "Archivierte Vorversion.",
      status: 4,
      start: `${year(-2)}-01-01`,
      end: `${year(-2)}-06-30`,
      target: 50,
      intro: "",
      outro: "",
      autoId: false,
      preliminary: [],
      categories: [
        {
          title: "Medikation",
          questions: [{ title: "Anzahl der Dauermedikamente", type: "Numerical", range: { min: 0, max: 12, step: 1 } }],
        },
      ],
    },
  ];
}

async function insertQuestion(
  db: Executor,
  surveyId: number,
  categoryId: number,
  parentOptionId: number | null,
  q: DemoQuestion,
  sort: number,
  prelim: Map<string, number>,
) {
  const question = await db
    .insertInto("questions")
    .values({
      survey_id: surveyId,
      category_id: categoryId,
      parent_answer_option_id: parentOptionId,
      title: q.title,
      type: questionTypeCode(q.type),
      sort,
      unit: q.unit ?? null,
      image_src: null,
      is_test_question: q.test ? 1 : 0,
      allow_file_attachments: q.attachments ? 1 : 0,
      allow_multiple_answers: q.type === "MultipleSelection" ? 1 : 0,
      dependence_type: q.showIf ? "SHOW" : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (q.showIf && prelim.has(q.showIf)) {
    await db
      .insertInto("question_dependence_options")
      .values({ question_id: question.id, patient_form_answer_option_id: prelim.get(q.showIf)! })
      .execute();
  }
  for (const [i, o] of (q.options ?? []).entries()) {
    const option = await db
      .insertInto("answer_options")
      .values({
        survey_id: surveyId,
        question_id: question.id,
        text: o.text,
        value: null,
        sort: i,
        is_exit_answer: o.exit ? 1 : 0,
        weighting_state: q.test ? (o.correct ? 1 : 0) : 2,
        weight: o.correct ? (o.weight ?? 1) : null,
        pos_x: null,
        pos_y: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [j, sub] of (o.sub ?? []).entries())
      await insertQuestion(db, surveyId, categoryId, option.id, sub, j, prelim);
  }
}

/** Inserts the demo surveys (each in one transaction) and returns their ids. */
export async function seedDemoData(db: DB): Promise<number[]> {
  const ids: number[] = [];
  for (const s of demoSurveys()) {
    const id = await db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const survey = await trx
        .insertInto("surveys")
        .values({
          title: s.title,
          description: s.description,
          status: s.status,
          status_before_archive: s.status === 4 ? 3 : null,
          start_date: s.start,
          end_date: s.end,
          intro_text: s.intro,
          outro_text: s.outro,
          target_responses: s.target,
          patient_id_auto_generation: s.autoId ? 1 : 0,
          patient_form_enabled: s.preliminary.length > 0 ? 1 : 0,
          hash: crypto.randomBytes(12).toString("hex"),
          source_survey_id: null,
          created_by_user_id: null,
          created_at: now,
          updated_at: now,
          archived_at: s.status === 4 ? now : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const form = await trx
        .insertInto("patient_forms")
        .values({ survey_id: survey.id })
        .returning("id")
        .executeTakeFirstOrThrow();
      const prelim = new Map<string, number>();
      for (const [i, p] of s.preliminary.entries()) {
        const attr = await trx
          .insertInto("patient_form_attributes")
          .values({ patient_form_id: form.id, survey_id: survey.id, title: p.title, sort: i })
          .returning("id")
          .executeTakeFirstOrThrow();
        for (const [j, text] of p.options.entries()) {
          const o = await trx
            .insertInto("patient_form_answer_options")
            .values({ attribute_id: attr.id, survey_id: survey.id, text, value: null, sort: j })
            .returning("id")
            .executeTakeFirstOrThrow();
          prelim.set(text, o.id);
        }
      }
      for (const [i, c] of s.categories.entries()) {
        const cat = await trx
          .insertInto("categories")
          .values({ survey_id: survey.id, title: c.title, sort: i })
          .returning("id")
          .executeTakeFirstOrThrow();
        for (const [j, q] of c.questions.entries()) await insertQuestion(trx, survey.id, cat.id, null, q, j, prelim);
      }
      await audit(
        trx,
        { userId: null, sub: null },
        {
          action: "survey.seed",
          entity: "survey",
          entityId: survey.id,
          surveyId: survey.id,
          after: { Title: s.title },
        },
      );
      return survey.id;
    });
    ids.push(id);
  }
  return ids;
}

/** Closed demo cases of the two Active demo surveys, so that their statistics have figures to show. */
export const DEMO_CASES = [60, 40] as const;

/** On the embedded default: a database without surveys gets the demo surveys, with demo cases. */
export async function seedDemoDataIfEmpty(db: DB): Promise<boolean> {
  const any = await db.selectFrom("surveys").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  const ids = await seedDemoData(db);
  const surveys = demoSurveys();
  for (const [i, count] of DEMO_CASES.entries()) {
    // Number questions answer within their range, found by title (unique within a demo survey).
    const ranges = new Map<string, NumberRange>();
    const collect = (qs: DemoQuestion[]): void => {
      for (const q of qs) {
        if (q.range) ranges.set(q.title, q.range);
        for (const o of q.options ?? []) collect(o.sub ?? []);
      }
    };
    for (const c of surveys[i].categories) collect(c.questions);
    await seedDemoCases(db, ids[i], count, 7 + i, ranges);
  }
  return true;
}
