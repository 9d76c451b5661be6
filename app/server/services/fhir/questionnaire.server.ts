import { answerKind } from "~/domain/question-types";
import { answerText, type AnswerOption, type Question, type Survey } from "~/domain/survey";
import { translate } from "~/server/locales.server";
import { code } from "../statistics/export-lines.server";
import { EXT, HL7, type FhirItem, type Questionnaire } from "./types.server";

/**
 * A survey as an HL7 FHIR R4 Questionnaire (docs/decisions/040-fhir.md): a group per category, the
 * preliminary questions as their own group, an item per question with its sub-questions nested under it,
 * answer options as codings with the export's codes, rules as enableWhen. linkIds are made of the ids
 * (C<id>, P<id>, Q<id>), so they stay the same across exports.
 */

export const linkIds = {
  intro: "intro",
  preliminary: "preliminary",
  category: (id: number) => `C${id}`,
  preliminaryQuestion: (id: number) => `P${id}`,
  question: (id: number) => `Q${id}`,
  files: (id: number) => `Q${id}.files`,
  when: (id: number) => `Q${id}.when`,
};

const STATUS: Record<string, Questionnaire["status"]> = {
  Draft: "draft",
  Pending: "active",
  Active: "active",
  Closed: "retired",
  Ended: "retired",
  Archived: "retired",
};

/** Text of rich text: tags dropped, entities read, white space folded. */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n")
    .trim();
}

function answerOptionOf(o: AnswerOption, base: string) {
  const extension: FhirItem["extension"] = [];
  if (o.Weight !== null && o.WeightingState !== 2) extension.push({ url: HL7.ordinalValue, valueDecimal: o.Weight });
  const own: FhirItem["extension"] = [];
  if (o.IsExitAnswer) own.push({ url: `${base}${EXT.exitAnswer}`, valueBoolean: true });
  if (o.WeightingState !== 2) own.push({ url: `${base}${EXT.weightingState}`, valueInteger: o.WeightingState });
  if (o.X !== null && o.Y !== null)
    own.push({
      url: `${base}${EXT.imageMarker}`,
      extension: [
        { url: "x", valueDecimal: o.X },
        { url: "y", valueDecimal: o.Y },
      ],
    });
  return {
    ...(own.length > 0 ? { extension: own } : {}),
    valueCoding: { ...(extension.length > 0 ? { extension } : {}), code: code(o), display: answerText(o) },
  };
}

interface Context {
  survey: Survey;
  base: string;
  culture: string | undefined;
  /** The preliminary answer's question and code, by preliminary answer id. */
  prelim: Map<number, { linkId: string; code: string; display: string }>;
}

function ruleConditions(q: Question, ctx: Context) {
  const rule = q.Dependence;
  if (!rule || rule.PreliminaryAnswerOptions.length === 0) return null;
  const operator = rule.Type === "SHOW" ? "=" : "!=";
  const enableWhen = rule.PreliminaryAnswerOptions.flatMap((id) => {
    const p = ctx.prelim.get(id);
    return p ? [{ question: p.linkId, operator, answerCoding: { code: p.code, display: p.display } }] : [];
  });
  return { enableWhen, behavior: rule.Type === "SHOW" ? ("any" as const) : ("all" as const) };
}

function questionItem(
  q: Question,
  ctx: Context,
  parent: { question: Question; option: AnswerOption } | null,
): FhirItem {
  const kind = answerKind(q);
  const item: FhirItem = { linkId: linkIds.question(q.Id), text: q.Title, type: "string" };
  const extension: NonNullable<FhirItem["extension"]> = [];
  if (q.AnswerOptions.length > 0 || kind === "single" || kind === "multiple") {
    item.type = "choice";
    if (kind === "multiple") item.repeats = true;
    item.answerOption = q.AnswerOptions.map((o) => answerOptionOf(o, ctx.base));
  } else if (kind === "number") {
    item.type = "decimal";
    if (q.Unit) extension.push({ url: HL7.unit, valueCoding: { display: q.Unit } });
  } else if (kind === "dateTime") item.type = "dateTime";
  else item.type = "text";
  if (q.IsTestQuestion) extension.push({ url: `${ctx.base}${EXT.testQuestion}`, valueBoolean: true });
  if (q.Type === "Image") {
    extension.push({ url: `${ctx.base}${EXT.image}`, valueString: q.ImageSrc ?? "" });
  }
  if (extension.length > 0) item.extension = extension;
  // Conditions: the answer a sub-question stands under, and the preliminary rule.
  const under = parent
    ? [
        {
          question: linkIds.question(parent.question.Id),
          operator: "=",
          answerCoding: { code: code(parent.option), display: answerText(parent.option) },
        },
      ]
    : [];
  const rule = ruleConditions(q, ctx);
  const children: FhirItem[] = [];
  if (q.AllowFileAttachments) {
    const files = translate(ctx.culture, "fhir.files");
    children.push({ linkId: linkIds.files(q.Id), text: files, type: "attachment", repeats: true });
  }
  for (const o of q.AnswerOptions)
    for (const s of o.SubQuestions) children.push(questionItem(s, ctx, { question: q, option: o }));
  if (children.length > 0) item.item = children;
  // "Under this answer, and any of these preliminary answers": enableWhen has one behaviour for all its
  // conditions, so the answer's condition goes on a group around the question.
  if (under.length > 0 && rule && rule.behavior === "any" && rule.enableWhen.length > 1) {
    item.enableWhen = rule.enableWhen;
    item.enableBehavior = "any";
    return { linkId: linkIds.when(q.Id), type: "group", enableWhen: under, item: [item] };
  }
  const all = [...under, ...(rule?.enableWhen ?? [])];
  if (all.length > 0) {
    item.enableWhen = all;
    if (all.length > 1) item.enableBehavior = under.length > 0 ? "all" : rule!.behavior;
  }
  return item;
}

export function questionnaireOf(survey: Survey, opts: { url: string; base: string; culture: string | undefined }) {
  const ctx: Context = { survey, base: opts.base, culture: opts.culture, prelim: new Map() };
  for (const a of survey.PatientForm)
    for (const o of a.AnswerOptions)
      ctx.prelim.set(o.Id, { linkId: linkIds.preliminaryQuestion(a.Id), code: code(o), display: o.Text });
  const items: FhirItem[] = [];
  const intro = plainText(survey.IntroText ?? "");
  if (intro) items.push({ linkId: linkIds.intro, type: "display", text: intro });
  if (survey.PatientForm.length > 0) {
    items.push({
      linkId: linkIds.preliminary,
      type: "group",
      text: translate(opts.culture, "fhir.preliminary"),
      item: survey.PatientForm.map((a) => ({
        linkId: linkIds.preliminaryQuestion(a.Id),
        text: a.Title,
        type: "choice",
        answerOption: a.AnswerOptions.map((o) => ({
          ...(o.IsExitAnswer ? { extension: [{ url: `${opts.base}${EXT.exitAnswer}`, valueBoolean: true }] } : {}),
          valueCoding: { code: code(o), display: o.Text },
        })),
      })),
    });
  }
  for (const c of survey.Categories) {
    const questions = c.Questions.filter((q) => q.ParentAnswerOptionId === null).map((q) => questionItem(q, ctx, null));
    // A group holds at least one item (que-1): an empty category keeps its title as a display item.
    const item =
      questions.length > 0
        ? questions
        : [{ linkId: `${linkIds.category(c.Id)}.empty`, type: "display", text: c.Title }];
    items.push({ linkId: linkIds.category(c.Id), type: "group", text: c.Title, item });
  }
  const questionnaire: Questionnaire = {
    resourceType: "Questionnaire",
    id: `survey-${survey.Id}`,
    url: opts.url,
    title: survey.Title,
    status: STATUS[survey.Status] ?? "draft",
    ...(survey.Description ? { description: survey.Description } : {}),
    item: items,
  };
  if (survey.Categories.length === 0 && items.length === 0) delete questionnaire.item;
  return questionnaire;
}
