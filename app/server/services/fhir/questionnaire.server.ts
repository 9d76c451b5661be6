import { answerKind } from "~/domain/question-types";
import type { Instrument } from "~/domain/instrument";
import { answerText, type AnswerOption, type Question, type Survey } from "~/domain/survey";
import { translate } from "~/server/locales.server";
import { code } from "../statistics/export-lines.server";
import { linkIds } from "./link-ids.server";
import { codingOf, totalItem } from "./total.server";
import { textsOf, withTranslations } from "./translations.server";
import { EXT, HL7, type FhirItem, type Questionnaire } from "./types.server";

/**
 * A survey as an HL7 FHIR R4 Questionnaire (docs/decisions/040-fhir.md): a group per category, the
 * preliminary questions as their own group, an item per question with its sub-questions nested under it,
 * answer options as codings with the export's codes and their scores, rules as enableWhen, a question's
 * hint as its help item, the instrument's identity and codes, and the total score as a calculated item.
 * linkIds are made of the ids (link-ids.server.ts), so they stay the same across exports. The language is the
 * survey's source language; each text's translations travel in HL7's translation extension beside it
 * (translations.server.ts, docs/decisions/056-statistics-languages.md).
 */

export { linkIds };

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

function answerOptionOf(o: AnswerOption, ctx: Context) {
  const base = ctx.base;
  const extension: FhirItem["extension"] = [];
  // The answer's score where SDC clients read it (weight()): R4's ordinalValue, and SDC's and R5's itemWeight.
  if (o.Score !== null) {
    extension.push({ url: HL7.ordinalValue, valueDecimal: o.Score }, { url: HL7.itemWeight, valueDecimal: o.Score });
  }
  if (o.IsExitAnswer) extension.push({ url: `${base}${EXT.exitAnswer}`, valueBoolean: true });
  // A test question's weighting is the product's own: a weight is no score.
  if (o.WeightingState !== 2) {
    extension.push({ url: `${base}${EXT.weightingState}`, valueInteger: o.WeightingState });
    if (o.Weight !== null) extension.push({ url: `${base}${EXT.testWeight}`, valueInteger: o.Weight });
  }
  if (o.X !== null && o.Y !== null)
    extension.push({
      url: `${base}${EXT.imageMarker}`,
      extension: [
        { url: "x", valueDecimal: o.X },
        { url: "y", valueDecimal: o.Y },
      ],
    });
  return {
    ...(extension.length > 0 ? { extension } : {}),
    valueCoding: codingOfOption(o, ctx),
  };
}

/** An answer as a coding: its system, its code (the export's), its text with its translations. */
function codingOfOption(o: AnswerOption, ctx: Context) {
  return {
    ...(o.System ? { system: o.System } : {}),
    code: code(o),
    display: answerText(o),
    ...withTranslations("display", textsOf(ctx.survey, `answer:${o.Id}`)),
  };
}

/** A question's hint as the help item under it, which LHC-Forms and other SDC forms show as its help. */
function hintItem(q: Question, ctx: Context): FhirItem {
  return {
    linkId: linkIds.hint(q.Id),
    text: q.Hint ?? "",
    ...withTranslations("text", textsOf(ctx.survey, `question:${q.Id}:Hint`)),
    type: "display",
    extension: [
      {
        url: HL7.itemControl,
        valueCodeableConcept: { coding: [{ system: HL7.itemControlSystem, code: "help", display: "Help-Button" }] },
      },
    ],
  };
}

/** A FHIR dateTime (date, year-month, year, or with hours and a zone). */
const FHIR_DATE_TIME = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** The instrument's identity on the Questionnaire. */
function identityOf(instrument: Instrument | null): Partial<Questionnaire> {
  if (!instrument) return {};
  const out: Partial<Questionnaire> = {};
  if (instrument.Name) out.name = instrument.Name;
  if (instrument.Identifier.length > 0)
    out.identifier = instrument.Identifier.map((i) => ({ ...(i.System ? { system: i.System } : {}), value: i.Value }));
  // A date typed otherwise than FHIR writes one stays in the product: the Questionnaire must stay valid.
  if (instrument.Date && FHIR_DATE_TIME.test(instrument.Date)) out.date = instrument.Date;
  if (instrument.SubjectType.length > 0) out.subjectType = instrument.SubjectType;
  if (instrument.Codes.length > 0) out.code = instrument.Codes.map(codingOf);
  if (instrument.Copyright) out.copyright = instrument.Copyright;
  return out;
}

interface Context {
  survey: Survey;
  base: string;
  culture: string | undefined;
  /** The preliminary answer's question and code, by preliminary answer id. */
  prelim: Map<number, { linkId: string; code: string; display: string; texts: Record<string, string> }>;
}

function ruleConditions(q: Question, ctx: Context) {
  const rule = q.Dependence;
  if (!rule || rule.PreliminaryAnswerOptions.length === 0) return null;
  const operator = rule.Type === "SHOW" ? "=" : "!=";
  const enableWhen = rule.PreliminaryAnswerOptions.flatMap((id) => {
    const p = ctx.prelim.get(id);
    if (!p) return [];
    const answerCoding = { code: p.code, display: p.display, ...withTranslations("display", p.texts) };
    return [{ question: p.linkId, operator, answerCoding }];
  });
  return { enableWhen, behavior: rule.Type === "SHOW" ? ("any" as const) : ("all" as const) };
}

function questionItem(
  q: Question,
  ctx: Context,
  parent: { question: Question; option: AnswerOption } | null,
): FhirItem {
  const kind = answerKind(q);
  const item: FhirItem = {
    linkId: linkIds.question(q.Id),
    ...(q.Codes.length > 0 ? { code: q.Codes.map(codingOf) } : {}),
    text: q.Title,
    ...withTranslations("text", textsOf(ctx.survey, `question:${q.Id}`)),
    type: "string",
  };
  const extension: NonNullable<FhirItem["extension"]> = [];
  if (q.AnswerOptions.length > 0 || kind === "single" || kind === "multiple") {
    item.type = "choice";
    if (kind === "multiple") item.repeats = true;
    item.answerOption = q.AnswerOptions.map((o) => answerOptionOf(o, ctx));
  } else if (kind === "number") {
    item.type = "decimal";
    if (q.Unit) {
      const unit = withTranslations("display", textsOf(ctx.survey, `question:${q.Id}:Unit`));
      extension.push({ url: HL7.unit, valueCoding: { display: q.Unit, ...unit } });
    }
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
          // With the answer's system: a form compares a coding's system too (LHC-Forms does).
          answerCoding: codingOfOption(parent.option, ctx),
        },
      ]
    : [];
  const rule = ruleConditions(q, ctx);
  const children: FhirItem[] = q.Hint ? [hintItem(q, ctx)] : [];
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
      ctx.prelim.set(o.Id, {
        linkId: linkIds.preliminaryQuestion(a.Id),
        code: code(o),
        display: o.Text,
        texts: textsOf(survey, `entry:${o.Id}`),
      });
  const items: FhirItem[] = [];
  const intro = plainText(survey.IntroText ?? "");
  if (intro) {
    const texts = textsOf(survey, "IntroText", plainText);
    items.push({ linkId: linkIds.intro, type: "display", text: intro, ...withTranslations("text", texts) });
  }
  if (survey.PatientForm.length > 0) {
    items.push({
      linkId: linkIds.preliminary,
      type: "group",
      text: translate(opts.culture, "fhir.preliminary"),
      item: survey.PatientForm.map((a) => ({
        linkId: linkIds.preliminaryQuestion(a.Id),
        text: a.Title,
        ...withTranslations("text", textsOf(survey, `attribute:${a.Id}`)),
        type: "choice",
        answerOption: a.AnswerOptions.map((o) => ({
          ...(o.IsExitAnswer ? { extension: [{ url: `${opts.base}${EXT.exitAnswer}`, valueBoolean: true }] } : {}),
          valueCoding: {
            code: code(o),
            display: o.Text,
            ...withTranslations("display", textsOf(survey, `entry:${o.Id}`)),
          },
        })),
      })),
    });
  }
  for (const c of survey.Categories) {
    const questions = c.Questions.filter((q) => q.ParentAnswerOptionId === null).map((q) => questionItem(q, ctx, null));
    const title = withTranslations("text", textsOf(survey, `category:${c.Id}`));
    // A group holds at least one item (que-1): an empty category keeps its title as a display item.
    const item =
      questions.length > 0
        ? questions
        : [{ linkId: `${linkIds.category(c.Id)}.empty`, type: "display", text: c.Title, ...title }];
    const codes = c.Codes.length > 0 ? { code: c.Codes.map(codingOf) } : {};
    items.push({ linkId: linkIds.category(c.Id), ...codes, type: "group", text: c.Title, ...title, item });
  }
  const total = totalItem(survey);
  if (total) items.push({ ...total, ...withTranslations("text", textsOf(survey, "ScoreTitle")) });
  const questionnaire: Questionnaire = {
    resourceType: "Questionnaire",
    id: `survey-${survey.Id}`,
    language: survey.SourceLanguage,
    url: opts.url,
    ...identityOf(survey.Instrument),
    title: survey.Title,
    ...withTranslations("title", textsOf(survey, "Title")),
    status: STATUS[survey.Status] ?? "draft",
    ...(survey.Description
      ? { description: survey.Description, ...withTranslations("description", textsOf(survey, "Description")) }
      : {}),
    item: items,
  };
  if (items.length === 0) delete questionnaire.item;
  return questionnaire;
}
