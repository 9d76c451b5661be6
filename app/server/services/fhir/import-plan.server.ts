import { editingLimits } from "~/domain/editing";
import type { Coding } from "~/domain/instrument";
import { SCORE_TITLE_MAX } from "~/domain/survey";
import { translate } from "~/server/locales.server";
import { lastPart, Losses, type LossPlace } from "./import-losses.server";
import { containedValueSets, cut, ITEM_KEYS, nameOf, QUESTIONNAIRE_KEYS } from "./import-parts.server";
import { codesOf, instrumentOf } from "./import-identity.server";
import { notAsked, TOTAL_EXTENSIONS, totalOf } from "./import-items.server";
import type { ImportPlan, PlanQuestion } from "./import-plan-types.server";
import { questionFrom } from "./import-question.server";
import {
  asQuestion,
  asGroup,
  intro,
  optionOf,
  otherProperties,
  quoted,
  refusedRepeat,
  type PlanCategory,
  type PlanReading,
} from "./import-reading.server";
import type { ImportItem, ImportQuestionnaire } from "./import-schema.server";
import { readTranslations, type LanguageTexts } from "./translations.server";
import { settleLanguages, trimmed } from "./import-languages.server";

/**
 * What a FHIR R4 Questionnaire becomes (docs/decisions/040-fhir.md): a plan of a Draft survey, and the list
 * of everything in the file the product cannot hold, in the editor's language. Pure: nothing is written here.
 * The plan's types are in import-plan-types.server.ts; an item as a question is read in import-question.server.ts.
 */

export function importPlan(q: ImportQuestionnaire, culture: string | undefined): ImportPlan {
  const losses = new Losses();
  const title = cut(q.title?.trim() || q.name?.trim() || translate(culture, "surveys.defaultTitle"), 200);
  const r: PlanReading = {
    q,
    culture,
    losses,
    plan: {
      title,
      description: q.description ?? "",
      intro: [],
      prelims: [],
      categories: [],
      scoreTitle: null,
      instrument: null,
      notKept: [],
      sourceLanguage: "de",
      languages: [],
      titleTexts: q.title?.trim() ? trimmed(readTranslations(q._title), 200) : {},
      descriptionTexts: q.description ? readTranslations(q._description) : {},
      introTexts: [],
      scoreTitleTexts: {},
    },
    valueSets: containedValueSets(q),
    textOf: new Map(),
    prelimOf: new Map(),
    questionOf: new Map(),
    totals: [],
    moves: [],
    emptied: new Set(),
  };
  const plan = r.plan;
  const index = (items: ImportItem[] = []) => {
    for (const i of items) {
      r.textOf.set(i.linkId, nameOf(i));
      index(i.item);
    }
  };
  index(q.item);

  const whole: LossPlace = { linkId: "", name: "", unit: "questionnaire" };
  for (const [key, value] of Object.entries(q)) {
    if (QUESTIONNAIRE_KEYS.has(key)) continue;
    if (key === "extension") for (const e of q.extension ?? []) losses.extension(whole, e);
    else losses.property(whole, key, value);
  }

  let loose: PlanCategory | null = null;
  for (const item of q.item ?? []) {
    if (item.type === "group" && item.linkId === "preliminary") preliminary(r, item);
    else if (item.type === "group") group(r, item, "");
    else if (item.type === "display") {
      if (item.text) intro(r, item);
    } else {
      const made = questionFrom(r, item, [], undefined);
      if (made.question || made.after.length > 0) loose ??= category(plan, plan.title, [], plan.titleTexts);
      if (made.question) loose!.questions.push(made.question);
      loose?.questions.push(...made.after);
    }
  }
  placeMoves(r);
  plan.categories = plan.categories.filter((c) => !r.emptied.has(c) || c.questions.length > 0);
  const total = scoreTotal(r);
  plan.instrument = instrumentOf(q, total ? codesOf(total.item.code) : []);
  settleLanguages(plan, q.language, losses);
  plan.notKept = losses.lines(culture);
  return plan;
}

/** A category of the plan, made in its place among the others. */
function category(plan: ImportPlan, title: string, codes: Coding[] = [], titleTexts: LanguageTexts = {}) {
  const made = {
    title: cut(title, editingLimits.categoryTitle),
    titleTexts: trimmed(titleTexts, editingLimits.categoryTitle, false),
    codes,
    questions: [] as PlanQuestion[],
  };
  plan.categories.push(made);
  return made;
}

/** A group as a category; a nested group makes one of its own, titled after its parents. */
function group(r: PlanReading, g: ImportItem, prefix: string, prefixTexts: LanguageTexts = {}) {
  if (refusedRepeat(r, g)) return;
  const before = r.losses.size;
  const at = asGroup(g);
  otherProperties(r, g, at);
  for (const e of g.extension ?? []) r.losses.extension(at, e);
  const title = prefix ? `${prefix} – ${nameOf(g)}` : nameOf(g);
  // The title's translations made as the title is: a nested group's after its parents'.
  const own = g.text?.trim() ? readTranslations(g._text) : {};
  const titleTexts: LanguageTexts = {};
  for (const lang of new Set([...Object.keys(prefixTexts), ...Object.keys(own)])) {
    const name = own[lang]?.trim() || nameOf(g);
    titleTexts[lang] = prefix ? `${prefixTexts[lang] ?? prefix} – ${name}` : name;
  }
  const target = category(r.plan, title, codesOf(g.code), titleTexts);
  for (const item of g.item ?? []) {
    if (item.type === "group") group(r, item, title, titleTexts);
    else if (item.type === "display") {
      if (item.text && item.text !== g.text) intro(r, item);
    } else {
      const made = questionFrom(r, item, g.enableWhen ?? [], g.enableBehavior);
      if (made.question) target.questions.push(made.question);
      target.questions.push(...made.after);
    }
  }
  if (target.questions.length === 0 && r.losses.size > before) r.emptied.add(target);
}

/** The group of preliminary questions: each a choice, without codes of its own. */
function preliminary(r: PlanReading, g: ImportItem) {
  if (refusedRepeat(r, g)) return;
  for (const p of g.item ?? []) {
    if (refusedRepeat(r, p)) continue;
    const at = asQuestion(p);
    const left = notAsked(p);
    if (left) {
      r.losses.note({ kind: left, at });
      continue;
    }
    const options = p.type === "choice" ? (p.answerOption ?? []).flatMap((o) => optionOf(r, o, p) ?? []) : [];
    if (options.length === 0) {
      r.losses.note({ kind: "itemType", at, variant: p.type });
      continue;
    }
    otherProperties(r, p, at);
    for (const e of p.extension ?? []) r.losses.extension(at, e);
    // A preliminary question has no codes of its own.
    if (p.code !== undefined) r.losses.property(at, "code", p.code);
    const prelim = {
      linkId: p.linkId,
      title: cut(nameOf(p), editingLimits.attributeTitle),
      titleTexts: p.text?.trim() ? trimmed(readTranslations(p._text), editingLimits.attributeTitle) : {},
      options: options.map((o) => ({ code: o.code, text: o.text, exit: o.exit, texts: o.texts })),
    };
    r.plan.prelims.push(prelim);
    r.prelimOf.set(p.linkId, prelim);
  }
}

/** A condition on another choice's answer: the item moves under that answer, where there is one. */
function placeMoves(r: PlanReading) {
  for (const move of r.moves) {
    const target = r.questionOf.get(move.on);
    const option = target?.options.find((o) => o.code === move.code);
    const home = r.plan.categories.find((c) => c.questions.includes(move.question));
    if (!target || !option || !home || target === move.question) {
      const about = `${quoted(r, r.textOf.get(move.on) ?? move.on)} = ${move.code}`;
      r.losses.note({
        kind: "condition",
        at: { linkId: move.question.linkId, name: move.question.title, unit: "question" },
        about,
      });
      continue;
    }
    home.questions.splice(home.questions.indexOf(move.question), 1);
    option.sub.push(move.question);
  }
}

/**
 * The survey's total among the calculated sums, its title and translations taken; the other sums are noted
 * as left out, and so is what the total's item carries beyond a title.
 */
function scoreTotal(r: PlanReading) {
  const { plan, losses } = r;
  const total = totalOf(plan, r.totals);
  for (const t of r.totals) if (t !== total) losses.note({ kind: t.kind, at: asQuestion(t.item) });
  if (total) {
    plan.scoreTitle = cut(nameOf(total.item), SCORE_TITLE_MAX);
    if (total.item.text?.trim()) plan.scoreTitleTexts = trimmed(readTranslations(total.item._text), SCORE_TITLE_MAX);
    // Its display, unit and the like: the survey's total has a title only.
    const at: LossPlace = { linkId: total.item.linkId, name: nameOf(total.item), unit: "total" };
    for (const [key, value] of Object.entries(total.item))
      if (!ITEM_KEYS.has(key) && key !== "initial") losses.property(at, key, value);
    for (const e of total.item.extension ?? []) if (!TOTAL_EXTENSIONS.has(lastPart(e.url))) losses.extension(at, e);
  }
  return total;
}
