import { png } from "./images";

/**
 * Every kind of choice group the fill page has, walked by keyboard, with what the page and the server hold
 * after each key (docs/decisions/039-keyboard-and-focus.md). The Chromium spec (e2e/fill-keys.spec.ts) and
 * the Firefox one (e2e/firefox/choice-keys.test.ts) walk the same steps, each with its own driver.
 *
 * The rule: the arrow keys in a radio group choose the answer they move to, as the platform has it, except
 * an answer that ends the survey, which they pass over; moving onto the answer already chosen changes
 * nothing. Space (or a click) on a single choice's chosen answer takes it back, as the specification's
 * "choosing the same answer again removes it"; Space toggles a checkbox; the arrow keys do nothing in a
 * group of checkboxes. What the page shows chosen is what the server holds, and a step that changes no
 * answer writes nothing (the case's version stays).
 */

export interface Step {
  /** Keys pressed in order; "Shift+Tab" holds Shift for the Tab. */
  keys: string[];
  /** The answer that has focus after them. */
  focus: string;
  /** The answers the page shows chosen, and the server holds, after them. */
  chosen: string[];
  /** Whether the case's answers changed on the server (its version moved). */
  changed: boolean;
}

export interface Walk {
  /** The question's title; `preliminary` for a preliminary question. */
  question: string;
  preliminary?: boolean;
  /** What kind of group it is, for the test's messages. */
  kind: string;
  /** Focus starts here, where a person tabbing to the group lands (nothing is chosen yet). */
  from: string;
  steps: Step[];
}

const EXIT = "Abbrechen";
const MARKER_EXIT = "Abbruch";

export const PRELIMINARY_WALK: Walk = {
  question: "Mobilität",
  preliminary: true,
  kind: "preliminary question",
  from: "gehfähig",
  steps: [
    { keys: ["Space"], focus: "gehfähig", chosen: ["gehfähig"], changed: true },
    { keys: ["ArrowDown"], focus: "bettlägerig", chosen: ["bettlägerig"], changed: true },
    { keys: ["ArrowUp"], focus: "gehfähig", chosen: ["gehfähig"], changed: true },
    { keys: ["ArrowUp"], focus: "im Rollstuhl", chosen: ["im Rollstuhl"], changed: true },
    // A preliminary question is answered, never emptied: Space on the chosen answer keeps it.
    { keys: ["Space"], focus: "im Rollstuhl", chosen: ["im Rollstuhl"], changed: false },
  ],
};

export const QUESTION_WALKS: Walk[] = [
  {
    question: "Farbe",
    kind: "single choice",
    from: "rot",
    steps: [
      { keys: ["Space"], focus: "rot", chosen: ["rot"], changed: true },
      { keys: ["ArrowDown"], focus: "grün", chosen: ["grün"], changed: true },
      { keys: ["ArrowRight"], focus: "blau", chosen: ["blau"], changed: true },
      { keys: ["ArrowDown"], focus: "rot", chosen: ["rot"], changed: true },
      { keys: ["ArrowUp"], focus: "blau", chosen: ["blau"], changed: true },
      { keys: ["ArrowLeft"], focus: "grün", chosen: ["grün"], changed: true },
      // Deliberately taken back, and chosen again.
      { keys: ["Space"], focus: "grün", chosen: [], changed: true },
      { keys: ["Space"], focus: "grün", chosen: ["grün"], changed: true },
      { keys: ["Enter"], focus: "grün", chosen: ["grün"], changed: false },
    ],
  },
  {
    question: "Wie weiter?",
    kind: "single choice with an answer that ends the survey",
    from: "Weiter",
    steps: [
      { keys: ["Space"], focus: "Weiter", chosen: ["Weiter"], changed: true },
      { keys: ["ArrowDown"], focus: EXIT, chosen: ["Weiter"], changed: false },
      { keys: ["ArrowUp"], focus: "Weiter", chosen: ["Weiter"], changed: false },
      { keys: ["ArrowDown", "ArrowDown"], focus: "Später", chosen: ["Später"], changed: true },
      { keys: ["ArrowUp"], focus: EXIT, chosen: ["Später"], changed: false },
      { keys: ["ArrowDown"], focus: "Später", chosen: ["Später"], changed: false },
      { keys: ["ArrowLeft", "ArrowLeft"], focus: "Weiter", chosen: ["Weiter"], changed: true },
      { keys: ["ArrowRight", "ArrowLeft"], focus: "Weiter", chosen: ["Weiter"], changed: false },
    ],
  },
  {
    question: "Beschwerden",
    kind: "multiple choice (checkboxes)",
    from: "Husten",
    steps: [
      { keys: ["Space"], focus: "Husten", chosen: ["Husten"], changed: true },
      { keys: ["ArrowDown"], focus: "Husten", chosen: ["Husten"], changed: false },
      { keys: ["Tab"], focus: "Fieber", chosen: ["Husten"], changed: false },
      { keys: ["Space"], focus: "Fieber", chosen: ["Husten", "Fieber"], changed: true },
      { keys: ["ArrowUp", "ArrowRight"], focus: "Fieber", chosen: ["Husten", "Fieber"], changed: false },
      { keys: ["Space"], focus: "Fieber", chosen: ["Husten"], changed: true },
      { keys: ["Shift+Tab", "Space"], focus: "Husten", chosen: [], changed: true },
    ],
  },
  {
    question: "Vorerkrankungen",
    kind: "multiple choice of the older kind",
    from: "Diabetes",
    steps: [
      { keys: ["Space"], focus: "Diabetes", chosen: ["Diabetes"], changed: true },
      { keys: ["ArrowDown"], focus: "Diabetes", chosen: ["Diabetes"], changed: false },
      { keys: ["Tab", "Space"], focus: "Asthma", chosen: ["Diabetes", "Asthma"], changed: true },
      { keys: ["ArrowUp"], focus: "Asthma", chosen: ["Diabetes", "Asthma"], changed: false },
    ],
  },
  {
    question: "Wo schmerzt es?",
    kind: "image markers, one answer (with a marker that ends the survey)",
    from: "Kopf",
    steps: [
      { keys: ["Space"], focus: "Kopf", chosen: ["Kopf"], changed: true },
      { keys: ["ArrowDown"], focus: MARKER_EXIT, chosen: ["Kopf"], changed: false },
      { keys: ["ArrowUp"], focus: "Kopf", chosen: ["Kopf"], changed: false },
      { keys: ["ArrowDown", "ArrowDown"], focus: "Knie", chosen: ["Knie"], changed: true },
      { keys: ["ArrowDown"], focus: "Kopf", chosen: ["Kopf"], changed: true },
      { keys: ["Space"], focus: "Kopf", chosen: [], changed: true },
      { keys: ["ArrowUp"], focus: "Knie", chosen: ["Knie"], changed: true },
    ],
  },
  {
    question: "Wo noch?",
    kind: "image markers, several answers",
    from: "Kopf",
    steps: [
      { keys: ["Space"], focus: "Kopf", chosen: ["Kopf"], changed: true },
      { keys: ["ArrowDown"], focus: "Kopf", chosen: ["Kopf"], changed: false },
      { keys: ["Tab", "Space"], focus: "Knie", chosen: ["Kopf", "Knie"], changed: true },
      { keys: ["Space"], focus: "Knie", chosen: ["Kopf"], changed: true },
    ],
  },
];

/** A call of the survey API as the test's driver makes it (signed in as someone with both roles). */
export type ApiCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

interface Option {
  Id: number;
  Text?: string;
  Title?: string;
}
interface SurveyDetail {
  Categories: { Questions: { Id: number; Title: string; AnswerOptions: Option[] }[] }[];
  PatientForm: { Id: number; Title: string; AnswerOptions: Option[] }[];
}

/** The survey of the walks, published; and how to read a case of it on the server. */
export async function choiceSurvey(call: ApiCall, title: string) {
  const survey = await call<{ Id: number }>("POST", "/surveys", { Title: title });
  await call("PUT", `/surveys/${survey.Id}`, { IntroText: "", IsPatientFormEnabled: true });
  await call("POST", "/patient-attributes", {
    SurveyId: survey.Id,
    Title: PRELIMINARY_WALK.question,
    Enabled: true,
    AnswerOptions: [{ Text: "gehfähig" }, { Text: "bettlägerig" }, { Text: "im Rollstuhl" }],
  });
  const category = await call<{ Id: number }>("POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const add = async (Title: string, Type: string, answers: string[] = [], extra: object = {}) => {
    const q = await call<{ Id: number }>("POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title,
      Type,
      ...extra,
    });
    for (const Text of answers) {
      await call("POST", "/answer-options", {
        SurveyId: survey.Id,
        QuestionId: q.Id,
        Text,
        IsExitAnswer: Text === EXIT,
      });
    }
  };
  const image = `data:image/png;base64,${png(480, 320).toString("base64")}`;
  await add("Farbe", "SingleSelection", ["rot", "grün", "blau"]);
  await add("Wie weiter?", "SingleSelection", ["Weiter", EXIT, "Später"]);
  await add("Beschwerden", "MultipleSelection", ["Husten", "Fieber", "Schwindel"]);
  await add("Vorerkrankungen", "MultipleChoice", ["Diabetes", "Asthma"]);
  await add("Wo schmerzt es?", "Image", [], {
    ImageSrc: image,
    AnswerOptions: [
      { Text: "Kopf", X: 0.5, Y: 0.1 },
      { Text: MARKER_EXIT, X: 0.1, Y: 0.9, IsExitAnswer: true },
      { Text: "Knie", X: 0.75, Y: 0.4 },
    ],
  });
  await add("Wo noch?", "Image", [], {
    ImageSrc: image,
    AllowMultipleAnswers: true,
    AnswerOptions: [
      { Text: "Kopf", X: 0.5, Y: 0.1 },
      { Text: "Knie", X: 0.75, Y: 0.4 },
    ],
  });
  await call("POST", `/surveys/${survey.Id}/approve`);

  const detail = await call<SurveyDetail>("GET", `/surveys/${survey.Id}`);
  const names = new Map<number, string>();
  const ids = new Map<string, number>();
  for (const q of detail.Categories.flatMap((c) => c.Questions)) {
    ids.set(q.Title, q.Id);
    for (const o of q.AnswerOptions) names.set(o.Id, o.Text ?? o.Title ?? "");
  }
  const preliminaryNames = new Map<number, string>();
  for (const a of detail.PatientForm) for (const o of a.AnswerOptions) preliminaryNames.set(o.Id, o.Text ?? "");

  const query = (patientId: string) => `surveyId=${survey.Id}&patientId=${encodeURIComponent(patientId)}`;
  return {
    id: survey.Id,
    /** The answers the server holds for a question of a case, by their texts. */
    async held(patientId: string, walk: Walk): Promise<string[]> {
      if (walk.preliminary) {
        const answers = await call<{ PatientFormAnswerOptionId: number }[]>(
          "GET",
          `/attribute-responses/?${query(patientId)}`,
        );
        return answers.map((a) => preliminaryNames.get(a.PatientFormAnswerOptionId) ?? "?");
      }
      const answers = await call<{ QuestionId: number; AnswerOptionId?: number; AnswerOptionIds?: number[] }[]>(
        "GET",
        `/question-responses/?${query(patientId)}`,
      );
      const own = answers.find((a) => a.QuestionId === ids.get(walk.question));
      const chosen = own?.AnswerOptionIds ?? (own?.AnswerOptionId === undefined ? [] : [own.AnswerOptionId]);
      return chosen.map((id) => names.get(id) ?? "?");
    },
    /** The case's answers version: it moves with every change of its answers. */
    async version(patientId: string): Promise<number> {
      return (await call<{ Version: number }>("GET", `/patients?${query(patientId)}`)).Version;
    },
  };
}

export type ChoiceSurvey = Awaited<ReturnType<typeof choiceSurvey>>;
