import { expect } from "vitest";
import type { TestIdp } from "~/server/idp/test-fixture.server";
import type { DialectName } from "../support/databases";
import { form, pdf, PNG, text } from "./fill-files";
import { json, useFillWorld, type FillWorld, type Who } from "./fill-support";

/**
 * A survey built through the editing API for the statistics tests, published, with six Closed cases and
 * one Open case filled through the fill API. The figures the tests expect are worked out by hand from the
 * answers listed here (see the table in `answersOf`).
 */

export interface Fixture {
  survey: number;
  categories: { befinden: number; wissen: number };
  smoker: { id: number; yes: number; no: number };
  sex: { id: number; female: number; male: number };
  q: {
    feeling: number;
    since: number;
    complaints: number;
    weight: number;
    measured: number;
    notes: number;
    daily: number;
    pulse: number;
    symptoms: number;
  };
  o: Record<string, number>;
  /** patient id → case id */
  cases: Record<string, number>;
  /** attachment ids by patient id */
  files: Record<string, number[]>;
}

export type Call = (who: Who, method: string, path: string, body?: unknown) => Promise<Response>;

async function created<T>(res: Response): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as T;
}

/** Builds the survey through the editing API and publishes it; returns its ids. */
export async function buildSurvey(call: Call, title: string): Promise<Omit<Fixture, "cases" | "files">> {
  const survey = (await created<{ Id: number }>(await call("editor", "POST", "/surveys", { Title: title }))).Id;
  const attribute = async (Title: string, texts: string[]) => {
    const a = await created<{ Id: number; AnswerOptions: { Id: number }[] }>(
      await call("editor", "POST", "/patient-attributes/", {
        SurveyId: survey,
        Title,
        AnswerOptions: texts.map((Text) => ({ Text })),
      }),
    );
    return { id: a.Id, ids: a.AnswerOptions.map((o) => o.Id) };
  };
  const smokerA = await attribute("Raucher", ["ja", "nein"]);
  const sexA = await attribute("Geschlecht", ["weiblich", "männlich"]);
  const category = async (Title: string) =>
    (await created<{ Id: number }>(await call("editor", "POST", "/categories", { SurveyId: survey, Title }))).Id;
  const befinden = await category("Befinden");
  const wissen = await category("Wissen");
  const question = async (CategoryId: number, Title: string, Type: string, extra: Record<string, unknown> = {}) =>
    (
      await created<{ Id: number }>(
        await call("editor", "POST", "/questions", { SurveyId: survey, CategoryId, Title, Type, ...extra }),
      )
    ).Id;
  const o: Record<string, number> = {};
  const option = async (QuestionId: number, key: string, Text: string, extra: Record<string, unknown> = {}) => {
    o[key] = (
      await created<{ Id: number }>(
        await call("editor", "POST", "/answer-options", { SurveyId: survey, QuestionId, Text, ...extra }),
      )
    ).Id;
  };

  const feeling = await question(befinden, "Wie geht es Ihnen?", "SingleSelection");
  await option(feeling, "gut", "gut", { Value: "G1" });
  await option(feeling, "mittel", "mittel", { Value: "G2" });
  await option(feeling, "schlecht", "schlecht", { Value: "G3" });
  const since = (
    await created<{ Id: number }>(
      await call("editor", "POST", `/answer-options/${o.gut}/sub-question`, {
        SurveyId: survey,
        Title: "Seit wann?",
        Type: "SingleSelection",
      }),
    )
  ).Id;
  await option(since, "tage", "Tage");
  await option(since, "wochen", "Wochen");
  const complaints = await question(befinden, "Beschwerden", "MultipleSelection");
  await option(complaints, "husten", "Husten");
  await option(complaints, "fieber", "Fieber");
  await option(complaints, "atemnot", "Atemnot");
  const weight = await question(befinden, "Körpergewicht", "Numerical", { Unit: "kg" });
  const measured = await question(befinden, "Letzte Messung", "DateTime");
  const notes = await question(befinden, "Anmerkungen", "FreeText", { AllowFileAttachments: true });
  const daily = await question(befinden, "Rauchen Sie täglich?", "SingleSelection", {
    Dependence: { Type: "SHOW", PreliminaryAnswerOptions: [smokerA.ids[0]] },
  });
  await option(daily, "dailyYes", "ja");
  await option(daily, "dailyNo", "nein");

  const pulse = await question(wissen, "Normaler Ruhepuls?", "SingleSelection", { IsTestQuestion: true });
  await option(pulse, "p60", "60 bis 100", { WeightingState: 1, Weight: 2 });
  await option(pulse, "p120", "120 bis 160", { WeightingState: 0 });
  await option(pulse, "pUnknown", "weiß nicht", { WeightingState: 2 });
  const symptoms = await question(wissen, "Zeichen einer Herzinsuffizienz?", "MultipleSelection", {
    IsTestQuestion: true,
  });
  await option(symptoms, "sAtemnot", "Atemnot", { WeightingState: 1, Weight: 3 });
  await option(symptoms, "sOedeme", "Ödeme", { WeightingState: 1, Weight: 1 });
  await option(symptoms, "sHaar", "Haarausfall", { WeightingState: 0 });

  const approved = await call("approver", "POST", `/surveys/${survey}/approve`);
  expect(approved.status, await approved.text()).toBe(204);
  return {
    survey,
    categories: { befinden, wissen },
    smoker: { id: smokerA.id, yes: smokerA.ids[0], no: smokerA.ids[1] },
    sex: { id: sexA.id, female: sexA.ids[0], male: sexA.ids[1] },
    q: { feeling, since, complaints, weight, measured, notes, daily, pulse, symptoms },
    o,
  };
}

export interface CaseAnswers {
  who: Who;
  smoker: "yes" | "no";
  sex: "female" | "male";
  feeling?: string;
  since?: string;
  complaints?: string[];
  weight?: number;
  measured?: string;
  notes?: string;
  daily?: string;
  pulse?: string;
  symptoms?: string[];
  files?: [string, Uint8Array][];
  close: boolean;
}

/**
 * The cases. By hand: Wie geht es Ihnen? gut 3, mittel 1, schlecht 1 of 5; Seit wann? Tage 2, Wochen 1
 * of 3; Beschwerden Husten 4, Fieber 3, Atemnot 1 of 5; Körpergewicht 65, 70.5, 80, 80, 91.25 (average
 * 77.35); Letzte Messung on 2024-03-01 (2), 2024-03-15, 2024-04-02; Rauchen täglich ja 2, nein 1 of 3
 * (only smokers see it); Ruhepuls scores 2, 2, 0, 2, 0, 2 (average 1.33 of 2); Zeichen scores 4, 3, 0, 1
 * (average 2 of 4, 4 cases: gray). OPEN is never counted.
 */
export const answersOf: Record<string, CaseAnswers> = {
  P1: {
    who: "user",
    smoker: "yes",
    sex: "female",
    feeling: "gut",
    since: "tage",
    complaints: ["husten", "fieber"],
    weight: 70.5,
    measured: "01.03.2024 08:00",
    notes: "Die Atemnot ist besser",
    daily: "dailyYes",
    pulse: "p60",
    symptoms: ["sAtemnot", "sOedeme"],
    files: [["befund.pdf", pdf("P1")]],
    close: true,
  },
  P2: {
    who: "user",
    smoker: "yes",
    sex: "male",
    feeling: "gut",
    since: "wochen",
    complaints: ["husten"],
    weight: 80,
    measured: "01.03.2024 20:30",
    notes: "Atemnot und Husten in der Nacht",
    daily: "dailyNo",
    pulse: "p60",
    symptoms: ["sAtemnot"],
    files: [
      ["röntgen.png", PNG],
      ["befund.pdf", pdf("P2")],
    ],
    close: true,
  },
  P3: {
    who: "user",
    smoker: "no",
    sex: "female",
    feeling: "mittel",
    complaints: ["husten", "fieber", "atemnot"],
    weight: 80,
    measured: "15.03.2024 12:00",
    notes: "=1+1 Schwindel",
    pulse: "p120",
    symptoms: ["sHaar"],
    close: true,
  },
  P4: {
    who: "user",
    smoker: "no",
    sex: "male",
    feeling: "schlecht",
    weight: 91.25,
    pulse: "p60",
    symptoms: ["sOedeme", "sHaar"],
    close: true,
  },
  P5: {
    who: "editor",
    smoker: "yes",
    sex: "female",
    feeling: "gut",
    since: "tage",
    complaints: ["fieber"],
    measured: "02.04.2024 09:15",
    notes: "Übelkeit, keine Beschwerden",
    daily: "dailyYes",
    pulse: "pUnknown",
    close: true,
  },
  P6: {
    who: "editor",
    smoker: "no",
    sex: "female",
    complaints: ["husten"],
    weight: 65,
    pulse: "p60",
    files: [
      ['Bericht: "März"?.txt', text("Bericht P6")],
      ["CON.txt", text("Gerät")],
    ],
    close: true,
  },
  OPEN: {
    who: "user",
    smoker: "yes",
    sex: "male",
    feeling: "schlecht",
    complaints: ["atemnot"],
    weight: 200,
    notes: "Atemnot Atemnot Atemnot",
    pulse: "p120",
    files: [["offen.pdf", pdf("OPEN")]],
    close: false,
  },
};

async function ok(res: Response) {
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return text;
}

/** Fills one case through the fill API, as a person would. */
export async function fillCase(w: FillWorld, f: Omit<Fixture, "cases" | "files">, patientId: string, a: CaseAnswers) {
  const added = await w.call(a.who, "POST", `/patients/add?patientId=${patientId}&surveyId=${f.survey}`);
  const caseId = JSON.parse(await ok(added)).PatientDataId as number;
  const base = { PatientId: patientId, SurveyId: f.survey };
  const attr = (id: number, option: number) =>
    w.call(a.who, "POST", "/attribute-responses", {
      ...base,
      PatientFormAttributeId: id,
      PatientFormAnswerOptionId: option,
    });
  await ok(await attr(f.smoker.id, a.smoker === "yes" ? f.smoker.yes : f.smoker.no));
  await ok(await attr(f.sex.id, a.sex === "female" ? f.sex.female : f.sex.male));
  const answer = (path: string, QuestionId: number, body: Record<string, unknown>) =>
    w.call(a.who, "POST", `/question-responses/${path}`, { ...base, QuestionId, ...body }).then(ok);
  const single = (q: number, key?: string) => key && answer("single-selection", q, { AnswerOptionId: f.o[key] });
  const multiple = (q: number, keys?: string[]) =>
    keys && answer("multiple-selection", q, { AnswerOptionIds: keys.map((k) => f.o[k]) });
  await single(f.q.feeling, a.feeling);
  await single(f.q.since, a.since);
  await multiple(f.q.complaints, a.complaints);
  if (a.weight !== undefined) await answer("numerical", f.q.weight, { NumericalResponse: a.weight });
  if (a.measured) await answer("date-time", f.q.measured, { DateTimeResponse: a.measured });
  if (a.notes) await answer("free-text", f.q.notes, { TextResponse: a.notes });
  await single(f.q.daily, a.daily);
  await single(f.q.pulse, a.pulse);
  await multiple(f.q.symptoms, a.symptoms);
  const files: number[] = [];
  if (a.files?.length) {
    const query = `questionId=${f.q.notes}&patientDataId=${caseId}&ssiUserDataId=1&userId=u1&surveyId=${f.survey}`;
    const res = await w.raw(a.who, "POST", `/file-attachments/upload?${query}`, { body: form(...a.files) });
    const body = JSON.parse(await ok(res)) as { Results: { Id: number; Uploaded: boolean }[] };
    for (const r of body.Results) {
      expect(r.Uploaded).toBe(true);
      files.push(r.Id);
    }
  }
  if (a.close) await ok(await w.call(a.who, "POST", `/patients/close?patientId=${patientId}&surveyId=${f.survey}`));
  return { caseId, files };
}

/** The statistics world: demo data, the fixture survey and its cases; `env` adds settings of the server's. */
export function useStatisticsWorld(kind: DialectName, idp: () => TestIdp, env?: Record<string, string>) {
  let fixture: Fixture | undefined;
  const prepare = async (w: FillWorld) => {
    const built = await buildSurvey(w.call, "Statistik: Herz & Kreislauf");
    const cases: Record<string, number> = {};
    const files: Record<string, number[]> = {};
    for (const [patientId, a] of Object.entries(answersOf)) {
      const done = await fillCase(w, built, patientId, a);
      cases[patientId] = done.caseId;
      files[patientId] = done.files;
    }
    fixture = { ...built, cases, files };
  };
  const world = useFillWorld(kind, idp, prepare, env && (() => env));
  return {
    world,
    fixture: () => {
      if (!fixture) throw new Error("The fixture is built in beforeAll");
      return fixture;
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the answer's shape
export type Body = any;

/** Calls the API and reads its JSON, checking the status. */
export async function read(res: Response, status = 200): Promise<Body> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

export { json };

/** Parses CSV as spreadsheets write it: quoted fields with doubled quotes, CRLF line ends. */
export function parseCsv(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Keeps the byte-order mark (a plain TextDecoder drops it). */
export const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
