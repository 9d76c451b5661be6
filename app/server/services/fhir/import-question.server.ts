import { editingLimits, ImageSrcSchema } from "~/domain/editing";
import { translate } from "~/server/locales.server";
import type { LossPlace } from "./import-losses.server";
import { codeOfCondition, cut, isOwn, nameOf } from "./import-parts.server";
import { codesOf } from "./import-identity.server";
import { notAsked } from "./import-items.server";
import type { PlanQuestion } from "./import-plan-types.server";
import {
  asQuestion,
  condition,
  optionOf,
  otherProperties,
  quoted,
  refusedRepeat,
  ruleOf,
  type PlanReading,
} from "./import-reading.server";
import type { ImportEnableWhen, ImportItem } from "./import-schema.server";
import { scoreTotalOf } from "./total.server";
import { readTranslations } from "./translations.server";
import { trimmed } from "./import-languages.server";
import { EXT, HL7 } from "./types.server";

/**
 * A Questionnaire's item as a question of the survey (import-plan.server.ts): its type and answers, its
 * extensions, its conditions, and what is nested under it: files, help texts, sub-questions.
 */

/** What an item makes: its question, if any, and the questions placed after it. */
interface Made {
  question: PlanQuestion | null;
  after: PlanQuestion[];
}

/** An item as a question, or what is asked of the items under it when it is not one. */
export function questionFrom(
  r: PlanReading,
  item: ImportItem,
  inherited: ImportEnableWhen[],
  behavior: string | undefined,
): Made {
  const at = asQuestion(item);
  if (refusedRepeat(r, item)) return { question: null, after: [] };
  const left = notAsked(item);
  if (left) {
    // Left out; a sum of the answers' scores may be the survey's total (decided once all is read). What is
    // nested under it (a help text aside) is asked after where it stood.
    const total = scoreTotalOf(item, r.q.extension ?? []);
    if (total) r.totals.push({ item, kind: left, names: total.names });
    else r.losses.note({ kind: left, at });
    const asked = (items: ImportItem[] = []): PlanQuestion[] =>
      items.flatMap((c) => {
        if (c.type === "display" || refusedRepeat(r, c)) return [];
        if (c.type === "group") return asked(c.item);
        const made = questionFrom(r, c, inherited, behavior);
        return [...(made.question ? [made.question] : []), ...made.after];
      });
    return { question: null, after: asked(item.item) };
  }
  const question: PlanQuestion = {
    linkId: item.linkId,
    title: cut(item.text?.trim() || item.linkId, editingLimits.questionTitle),
    type: "FreeText",
    multiple: false,
    unit: null,
    files: false,
    image: null,
    options: [],
    rule: null,
    test: null,
    hint: null,
    codes: codesOf(item.code),
    titleTexts: item.text?.trim() ? trimmed(readTranslations(item._text), editingLimits.questionTitle) : {},
    hintTexts: {},
    unitTexts: {},
  };
  if (!typed(r, item, question, at)) return { question: null, after: [] };
  otherProperties(r, item, at);
  extensions(r, item, question, at);
  conditions(r, item, question, at, inherited, behavior);
  const after = children(r, item, question);
  r.questionOf.set(item.linkId, question);
  return { question, after };
}

/** The question's type from the item's, with a choice's answers; false when the survey holds no such item. */
function typed(r: PlanReading, item: ImportItem, question: PlanQuestion, at: LossPlace): boolean {
  const type = item.type;
  if (type === "choice" || type === "open-choice") {
    if (type === "open-choice") r.losses.note({ kind: "openChoice", at });
    const options = item.answerOption
      ? item.answerOption.flatMap((o) => optionOf(r, o, item) ?? [])
      : item.answerValueSet
        ? r.valueSets.get(item.answerValueSet)?.map((c) => ({
            ...c,
            score: null,
            weight: null,
            weightingState: 2,
            texts: {},
            exit: false,
            x: null,
            y: null,
            sub: [] as PlanQuestion[],
          }))
        : undefined;
    if (!options || options.length === 0) {
      // The value set by its name: the last part of its address, or the id of a contained one.
      const about = item.answerValueSet?.replace(/\|.*$/, "").replace(/^.*[/#]/, "");
      r.losses.note({ kind: "answersElsewhere", at, about });
    } else {
      question.type = item.repeats ? "MultipleSelection" : "SingleSelection";
      question.multiple = item.repeats === true;
      question.options = options.slice(0, editingLimits.options).map((o) => ({
        ...o,
        text: cut(o.text, editingLimits.answerText),
        texts: trimmed(o.texts, editingLimits.answerText, false),
        code: cut(o.code, editingLimits.value),
      }));
    }
  } else if (type === "string" || type === "text") question.type = "FreeText";
  else if (type === "date" || type === "dateTime" || type === "time") question.type = "DateTime";
  else if (type === "integer" || type === "decimal") question.type = "Numerical";
  else {
    if (type === "attachment") r.losses.note({ kind: "attachment", at });
    else r.losses.note({ kind: "itemType", at, variant: type });
    return false;
  }
  return true;
}

/** The item's extensions: a test question, a unit, an image; any other is noted as not kept. */
function extensions(r: PlanReading, item: ImportItem, question: PlanQuestion, at: LossPlace) {
  for (const e of item.extension ?? []) {
    const url = e.url;
    const coding = e.valueCoding as { code?: string; display?: string } | undefined;
    if (isOwn(url, EXT.testQuestion)) question.test = e.valueBoolean === true;
    else if (url === HL7.unit && question.type === "Numerical") {
      question.unit = cut(coding?.display ?? coding?.code ?? "", editingLimits.unit) || null;
      if (question.unit && coding?.display)
        question.unitTexts = trimmed(readTranslations((coding as { _display?: unknown })._display), editingLimits.unit);
    } else if (isOwn(url, EXT.image) && question.options.length > 0) {
      question.type = "Image";
      const src = ImageSrcSchema.safeParse(e.valueString);
      question.image = src.success ? src.data : null;
      if (!src.success) r.losses.note({ kind: "image", at });
    } else r.losses.extension(at, e);
  }
}

/** Conditions: preliminary rules, or a single one on another choice's answer (a sub-question). */
function conditions(
  r: PlanReading,
  item: ImportItem,
  question: PlanQuestion,
  at: LossPlace,
  inherited: ImportEnableWhen[],
  behavior: string | undefined,
) {
  const all = [...inherited, ...(item.enableWhen ?? [])];
  const rule = ruleOf(r, all, item.enableBehavior ?? behavior);
  if (rule) question.rule = rule;
  else if (rule === undefined) {
    const w = all.length === 1 ? all[0] : null;
    const code = w && w.operator === "=" ? codeOfCondition(w) : null;
    if (w && code !== null) r.moves.push({ question, on: w.question, code, from: [] });
    else r.losses.note({ kind: "condition", at, about: all.map((c) => condition(r, c)).join(", ") });
  }
}

/**
 * The item's children: files, help texts, sub-questions under this question's answers; the questions placed
 * after it are returned.
 */
function children(r: PlanReading, item: ImportItem, question: PlanQuestion): PlanQuestion[] {
  const after: PlanQuestion[] = [];
  const child = (c: ImportItem, inheritedConditions: ImportEnableWhen[], childBehavior?: string) => {
    if (c.type === "attachment" && !c.item?.length) {
      question.files = true;
      return;
    }
    if (refusedRepeat(r, c)) return;
    if (c.type === "group") {
      for (const inner of c.item ?? [])
        child(inner, [...inheritedConditions, ...(c.enableWhen ?? [])], c.enableBehavior);
      return;
    }
    if (c.type === "display") {
      help(question, c);
      return;
    }
    const all = [...inheritedConditions, ...(c.enableWhen ?? [])];
    const onThis = all.find((w) => w.question === item.linkId && w.operator === "=" && codeOfCondition(w) !== null);
    const option = onThis ? question.options.find((o) => o.code === codeOfCondition(onThis)) : undefined;
    if (!onThis || !option) {
      r.losses.note({
        kind: "nested",
        at: asQuestion(c),
        about: translate(r.culture, "fhir.notKept.under", { item: quoted(r, nameOf(item)) }),
      });
      const made = questionFrom(r, c, inheritedConditions, childBehavior);
      if (made.question) after.push(made.question, ...made.after);
      return;
    }
    const others = all.filter((w) => w !== onThis);
    const made = questionFrom(r, { ...c, enableWhen: others }, [], childBehavior ?? c.enableBehavior);
    if (made.question) option.sub.push(made.question);
    after.push(...made.after);
  };
  for (const c of item.item ?? []) child(c, []);
  return after;
}

/** A text under a question is its help (LHC-Forms shows it so, with itemControl help or without). */
function help(question: PlanQuestion, c: ImportItem) {
  const text = c.text?.trim();
  if (!text) return;
  // Its translations joined as the texts are, the text itself where a part has none.
  const helpTexts = trimmed(readTranslations(c._text), editingLimits.hint);
  for (const lang of new Set([...Object.keys(question.hintTexts), ...Object.keys(helpTexts)])) {
    const before = question.hint ? (question.hintTexts[lang] ?? question.hint) : null;
    const part = helpTexts[lang] ?? text;
    question.hintTexts[lang] = cut(before ? `${before}\n\n${part}` : part, editingLimits.hint);
  }
  question.hint = cut(question.hint ? `${question.hint}\n\n${text}` : text, editingLimits.hint);
}
