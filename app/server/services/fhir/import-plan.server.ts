import { editingLimits, ImageSrcSchema } from "~/domain/editing";
import type { Coding, Instrument } from "~/domain/instrument";
import type { QuestionType } from "~/domain/question-types";
import type { ContentLanguage } from "~/domain/content-languages";
import { SCORE_TITLE_MAX } from "~/domain/survey";
import { translate } from "~/server/locales.server";
import { lastPart, Losses, type LossKind, type LossPlace } from "./import-losses.server";
import {
  codeOfCondition,
  containedValueSets,
  cut,
  describeCondition,
  isOwn,
  ITEM_KEYS,
  nameOf,
  optionOf as optionOfParts,
  QUESTIONNAIRE_KEYS,
  type PlanOptionOf,
} from "./import-parts.server";
import { codesOf, instrumentOf } from "./import-identity.server";
import type { ImportAnswerOption, ImportEnableWhen, ImportItem, ImportQuestionnaire } from "./import-schema.server";
import { scoreTotalOf } from "./total.server";
import { readTranslations, type LanguageTexts } from "./translations.server";
import { settleLanguages, trimmed } from "./import-languages.server";
import { EXT, HL7 } from "./types.server";

/**
 * What a FHIR R4 Questionnaire becomes (docs/decisions/040-fhir.md): a plan of a Draft survey, and the list
 * of everything in the file the product cannot hold, in the editor's language. Pure: nothing is written here.
 */

export type PlanOption = PlanOptionOf<PlanQuestion>;

export interface PlanQuestion {
  linkId: string;
  title: string;
  type: QuestionType;
  multiple: boolean;
  unit: string | null;
  files: boolean;
  image: string | null;
  options: PlanOption[];
  rule: { type: "SHOW" | "HIDE"; refs: { linkId: string; code: string }[] } | null;
  /** A scored (test) question: the product's own extension, else whether an answer is weighted. */
  test: boolean | null;
  /** The help texts under the item, one paragraph each. */
  hint: string | null;
  codes: Coding[];
  /** The translations of its title, hint and unit (docs/decisions/056-statistics-languages.md). */
  titleTexts: LanguageTexts;
  hintTexts: LanguageTexts;
  unitTexts: LanguageTexts;
}

export interface ImportPlan {
  title: string;
  description: string;
  intro: string[];
  prelims: {
    linkId: string;
    title: string;
    titleTexts: LanguageTexts;
    options: { code: string; text: string; exit: boolean; texts: LanguageTexts }[];
  }[];
  categories: { title: string; titleTexts: LanguageTexts; codes: Coding[]; questions: PlanQuestion[] }[];
  /** The total score the Questionnaire calculates from its answers' scores: the survey computes it. */
  scoreTitle: string | null;
  instrument: Instrument | null;
  notKept: string[];
  /**
   * The languages (docs/decisions/056-statistics-languages.md): the Questionnaire's own, the translations it
   * carries of each text (HL7's translation extension), by content language once the plan is made.
   */
  sourceLanguage: ContentLanguage;
  languages: ContentLanguage[];
  titleTexts: LanguageTexts;
  descriptionTexts: LanguageTexts;
  /** Per paragraph of `intro`. */
  introTexts: LanguageTexts[];
  scoreTitleTexts: LanguageTexts;
}

/** The item types a survey holds as questions: everything else is left out, and so are their repeats. */
const HELD_TYPES = new Set([
  "choice",
  "open-choice",
  "string",
  "text",
  "date",
  "dateTime",
  "time",
  "integer",
  "decimal",
]);

/**
 * An item that is shown but not answered, or not shown at all: a survey has no place for it, and as a
 * question it would ask someone to type what the form computes or keeps to itself.
 */
function notAsked(item: ImportItem): LossKind | null {
  const parts = (item.extension ?? []).map((e) => [lastPart(e.url), e.valueBoolean] as const);
  if (parts.some(([name]) => name === "sdc-questionnaire-calculatedExpression")) return "calculated";
  if (item.readOnly === true) return "readOnly";
  if (parts.some(([name, on]) => name === "questionnaire-hidden" && on === true)) return "hidden";
  return null;
}

/** The questions under an item that a refused repeat takes with it (files and texts are not questions). */
function questionsUnder(items: ImportItem[] = []): number {
  return items.reduce(
    (n, i) =>
      n + (i.type === "group" || i.type === "display" || i.type === "attachment" ? 0 : 1) + questionsUnder(i.item),
    0,
  );
}

/** What a total item carries that the survey's total is: its calculation, and that it is read-only or hidden. */
const TOTAL_EXTENSIONS = new Set([
  "sdc-questionnaire-calculatedExpression",
  "sdc-questionnaire-initialExpression",
  "questionnaire-hidden",
]);

/**
 * The total of the survey among calculated sums: the first that names no questions, or names every question
 * with a scored answer (PHQ-9's names each of its nine); a sum of some of them (a subscale) is not the
 * survey's total, which adds up every chosen answer's score. None when no question has a scored answer.
 */
function totalOf<T extends { names: Set<string> }>(plan: ImportPlan, totals: T[]): T | null {
  const scored: string[] = [];
  const walk = (questions: PlanQuestion[]) => {
    for (const q of questions) {
      if (q.options.some((o) => o.score !== null)) scored.push(q.linkId);
      for (const o of q.options) walk(o.sub);
    }
  };
  for (const c of plan.categories) walk(c.questions);
  if (scored.length === 0) return null;
  return totals.find((t) => t.names.size === 0 || scored.every((linkId) => t.names.has(linkId))) ?? null;
}

/** How many questions a plan makes, sub-questions included. */
export function questionCount(plan: ImportPlan): number {
  const count = (questions: PlanQuestion[]): number =>
    questions.reduce((n, q) => n + 1 + q.options.reduce((m, o) => m + count(o.sub), 0), 0);
  return plan.categories.reduce((n, c) => n + count(c.questions), 0);
}

export function importPlan(q: ImportQuestionnaire, culture: string | undefined): ImportPlan {
  const valueSets = containedValueSets(q);
  const losses = new Losses();
  const quoted = (text: string) => translate(culture, "fhir.notKept.quoted", { text });
  const asQuestion = (item: ImportItem): LossPlace => ({ linkId: item.linkId, name: nameOf(item), unit: "question" });
  const asGroup = (item: ImportItem): LossPlace => ({ linkId: item.linkId, name: nameOf(item), unit: "group" });

  // Conditions name the questions they ask about by their texts.
  const textOf = new Map<string, string>();
  const index = (items: ImportItem[] = []) => {
    for (const i of items) {
      textOf.set(i.linkId, nameOf(i));
      index(i.item);
    }
  };
  index(q.item);
  const condition = (w: ImportEnableWhen) => describeCondition(w, (id) => quoted(textOf.get(id) ?? id));

  const whole: LossPlace = { linkId: "", name: "", unit: "questionnaire" };
  for (const [key, value] of Object.entries(q)) {
    if (QUESTIONNAIRE_KEYS.has(key)) continue;
    if (key === "extension") for (const e of q.extension ?? []) losses.extension(whole, e);
    else losses.property(whole, key, value);
  }

  /** The properties of an item the import does not read: a required answer, a preset one, any other. */
  const otherProperties = (item: ImportItem, at: LossPlace) => {
    for (const [key, value] of Object.entries(item)) {
      if (key === "required" && value === true) {
        if (at.unit === "question") losses.note({ kind: "required", at });
        else losses.property(at, key, value);
      } else if (key === "initial") losses.note({ kind: "initial", at });
      else if (!ITEM_KEYS.has(key)) losses.property(at, key, value);
    }
  };

  /** A repeating group is refused with all it holds: a survey has no block that repeats per entry. */
  const refusedRepeat = (item: ImportItem): boolean => {
    if (item.repeats !== true) return false;
    if (item.type === "group") {
      losses.note({ kind: "repeatingGroup", at: asGroup(item), count: questionsUnder(item.item) });
      return true;
    }
    // A choice that repeats takes several answers; a file item that repeats takes several files.
    if (item.type === "choice" || item.type === "open-choice" || !HELD_TYPES.has(item.type)) return false;
    losses.note({ kind: "repeatingItem", at: asQuestion(item), count: 1 + questionsUnder(item.item) });
    return true;
  };

  const optionOf = (o: ImportAnswerOption, item: ImportItem) =>
    optionOfParts<PlanQuestion>(o, asQuestion(item), losses);
  const plan: ImportPlan = {
    title: cut(q.title?.trim() || q.name?.trim() || translate(culture, "surveys.defaultTitle"), 200),
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
  };
  const prelimOf = new Map<string, ImportPlan["prelims"][number]>();
  const questionOf = new Map<string, PlanQuestion>();
  /** A paragraph of the start text, with its translations. */
  const intro = (item: ImportItem) => {
    plan.intro.push(item.text!);
    plan.introTexts.push(readTranslations(item._text));
  };

  /** A rule from conditions on preliminary questions, or null with the conditions listed. */
  const ruleOf = (conditions: ImportEnableWhen[], behavior: string | undefined) => {
    if (conditions.length === 0) return null;
    const refs = conditions.map((w) => ({ linkId: w.question, code: codeOfCondition(w), op: w.operator }));
    const onPrelims = refs.every((r) => prelimOf.has(r.linkId) && r.code !== null);
    const ops = new Set(refs.map((r) => r.op));
    const single = refs.length === 1;
    if (onPrelims && ops.size === 1 && ops.has("=") && (single || behavior !== "all"))
      return { type: "SHOW" as const, refs: refs.map((r) => ({ linkId: r.linkId, code: r.code! })) };
    if (onPrelims && ops.size === 1 && ops.has("!=") && (single || behavior === "all"))
      return { type: "HIDE" as const, refs: refs.map((r) => ({ linkId: r.linkId, code: r.code! })) };
    return undefined;
  };

  /** Calculated items that add up the answers' scores: the first that sums them all is the survey's total. */
  const totals: { item: ImportItem; kind: LossKind; names: Set<string> }[] = [];
  /** Later: items whose single condition is on another choice's answer become its sub-questions. */
  const moves: { question: PlanQuestion; on: string; code: string; from: PlanQuestion[] }[] = [];

  const questionFrom = (
    item: ImportItem,
    inherited: ImportEnableWhen[],
    behavior: string | undefined,
  ): { question: PlanQuestion | null; after: PlanQuestion[] } => {
    const at = asQuestion(item);
    if (refusedRepeat(item)) return { question: null, after: [] };
    const left = notAsked(item);
    if (left) {
      // Left out; a sum of the answers' scores may be the survey's total (decided once all is read). What is
      // nested under it (a help text aside) is asked after where it stood.
      const total = scoreTotalOf(item, q.extension ?? []);
      if (total) totals.push({ item, kind: left, names: total.names });
      else losses.note({ kind: left, at });
      const asked = (items: ImportItem[] = []): PlanQuestion[] =>
        items.flatMap((c) => {
          if (c.type === "display" || refusedRepeat(c)) return [];
          if (c.type === "group") return asked(c.item);
          const made = questionFrom(c, inherited, behavior);
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
    const type = item.type;
    if (type === "choice" || type === "open-choice") {
      if (type === "open-choice") losses.note({ kind: "openChoice", at });
      const options = item.answerOption
        ? item.answerOption.flatMap((o) => optionOf(o, item) ?? [])
        : item.answerValueSet
          ? valueSets.get(item.answerValueSet)?.map((c) => ({
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
        losses.note({ kind: "answersElsewhere", at, about });
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
      if (type === "attachment") losses.note({ kind: "attachment", at });
      else losses.note({ kind: "itemType", at, variant: type });
      return { question: null, after: [] };
    }
    otherProperties(item, at);
    for (const e of item.extension ?? []) {
      const url = e.url;
      const coding = e.valueCoding as { code?: string; display?: string } | undefined;
      if (isOwn(url, EXT.testQuestion)) question.test = e.valueBoolean === true;
      else if (url === HL7.unit && question.type === "Numerical") {
        question.unit = cut(coding?.display ?? coding?.code ?? "", editingLimits.unit) || null;
        if (question.unit && coding?.display)
          question.unitTexts = trimmed(
            readTranslations((coding as { _display?: unknown })._display),
            editingLimits.unit,
          );
      } else if (isOwn(url, EXT.image) && question.options.length > 0) {
        question.type = "Image";
        const src = ImageSrcSchema.safeParse(e.valueString);
        question.image = src.success ? src.data : null;
        if (!src.success) losses.note({ kind: "image", at });
      } else losses.extension(at, e);
    }
    // Conditions: preliminary rules, or a single one on another choice's answer (a sub-question).
    const conditions = [...inherited, ...(item.enableWhen ?? [])];
    const rule = ruleOf(conditions, item.enableBehavior ?? behavior);
    if (rule) question.rule = rule;
    else if (rule === undefined) {
      const w = conditions.length === 1 ? conditions[0] : null;
      const code = w && w.operator === "=" ? codeOfCondition(w) : null;
      if (w && code !== null) moves.push({ question, on: w.question, code, from: [] });
      else losses.note({ kind: "condition", at, about: conditions.map(condition).join(", ") });
    }
    // Children: files, help texts, sub-questions under this question's answers, or items placed after it.
    const after: PlanQuestion[] = [];
    const child = (c: ImportItem, inheritedConditions: ImportEnableWhen[], childBehavior?: string) => {
      if (c.type === "attachment" && !c.item?.length) {
        question.files = true;
        return;
      }
      if (refusedRepeat(c)) return;
      if (c.type === "group") {
        for (const inner of c.item ?? [])
          child(inner, [...inheritedConditions, ...(c.enableWhen ?? [])], c.enableBehavior);
        return;
      }
      if (c.type === "display") {
        // A text under a question is its help (LHC-Forms shows it so, with itemControl help or without).
        const help = c.text?.trim();
        if (help) {
          // Its translations joined as the texts are, the text itself where a part has none.
          const helpTexts = trimmed(readTranslations(c._text), editingLimits.hint);
          for (const lang of new Set([...Object.keys(question.hintTexts), ...Object.keys(helpTexts)])) {
            const before = question.hint ? (question.hintTexts[lang] ?? question.hint) : null;
            const part = helpTexts[lang] ?? help;
            question.hintTexts[lang] = cut(before ? `${before}\n\n${part}` : part, editingLimits.hint);
          }
          question.hint = cut(question.hint ? `${question.hint}\n\n${help}` : help, editingLimits.hint);
        }
        return;
      }
      const all = [...inheritedConditions, ...(c.enableWhen ?? [])];
      const onThis = all.find((w) => w.question === item.linkId && w.operator === "=" && codeOfCondition(w) !== null);
      const option = onThis ? question.options.find((o) => o.code === codeOfCondition(onThis)) : undefined;
      if (!onThis || !option) {
        losses.note({
          kind: "nested",
          at: asQuestion(c),
          about: translate(culture, "fhir.notKept.under", { item: quoted(nameOf(item)) }),
        });
        const made = questionFrom(c, inheritedConditions, childBehavior);
        if (made.question) after.push(made.question, ...made.after);
        return;
      }
      const others = all.filter((w) => w !== onThis);
      const made = questionFrom({ ...c, enableWhen: others }, [], childBehavior ?? c.enableBehavior);
      if (made.question) option.sub.push(made.question);
      after.push(...made.after);
    };
    for (const c of item.item ?? []) child(c, []);
    questionOf.set(item.linkId, question);
    return { question, after };
  };

  const category = (title: string, codes: Coding[] = [], titleTexts: LanguageTexts = {}) => {
    const made = {
      title: cut(title, editingLimits.categoryTitle),
      titleTexts: trimmed(titleTexts, editingLimits.categoryTitle, false),
      codes,
      questions: [] as PlanQuestion[],
    };
    plan.categories.push(made);
    return made;
  };
  let loose: ImportPlan["categories"][number] | null = null;
  /** Categories whose every question was refused or left out: not made (an empty group's category is). */
  const emptied = new Set<ImportPlan["categories"][number]>();
  const group = (g: ImportItem, prefix: string, prefixTexts: LanguageTexts = {}) => {
    if (refusedRepeat(g)) return;
    const before = losses.size;
    const at = asGroup(g);
    otherProperties(g, at);
    for (const e of g.extension ?? []) losses.extension(at, e);
    const title = prefix ? `${prefix} – ${nameOf(g)}` : nameOf(g);
    // The title's translations made as the title is: a nested group's after its parents'.
    const own = g.text?.trim() ? readTranslations(g._text) : {};
    const titleTexts: LanguageTexts = {};
    for (const lang of new Set([...Object.keys(prefixTexts), ...Object.keys(own)])) {
      const name = own[lang]?.trim() || nameOf(g);
      titleTexts[lang] = prefix ? `${prefixTexts[lang] ?? prefix} – ${name}` : name;
    }
    const target = category(title, codesOf(g.code), titleTexts);
    for (const item of g.item ?? []) {
      if (item.type === "group") group(item, title, titleTexts);
      else if (item.type === "display") {
        if (item.text && item.text !== g.text) intro(item);
      } else {
        const made = questionFrom(item, g.enableWhen ?? [], g.enableBehavior);
        if (made.question) target.questions.push(made.question);
        target.questions.push(...made.after);
      }
    }
    if (target.questions.length === 0 && losses.size > before) emptied.add(target);
  };
  const preliminary = (g: ImportItem) => {
    if (refusedRepeat(g)) return;
    for (const p of g.item ?? []) {
      if (refusedRepeat(p)) continue;
      const at = asQuestion(p);
      const left = notAsked(p);
      if (left) {
        losses.note({ kind: left, at });
        continue;
      }
      const options = p.type === "choice" ? (p.answerOption ?? []).flatMap((o) => optionOf(o, p) ?? []) : [];
      if (options.length === 0) {
        losses.note({ kind: "itemType", at, variant: p.type });
        continue;
      }
      otherProperties(p, at);
      for (const e of p.extension ?? []) losses.extension(at, e);
      // A preliminary question has no codes of its own.
      if (p.code !== undefined) losses.property(at, "code", p.code);
      const prelim = {
        linkId: p.linkId,
        title: cut(nameOf(p), editingLimits.attributeTitle),
        titleTexts: p.text?.trim() ? trimmed(readTranslations(p._text), editingLimits.attributeTitle) : {},
        options: options.map((o) => ({ code: o.code, text: o.text, exit: o.exit, texts: o.texts })),
      };
      plan.prelims.push(prelim);
      prelimOf.set(p.linkId, prelim);
    }
  };
  for (const item of q.item ?? []) {
    if (item.type === "group" && item.linkId === "preliminary") preliminary(item);
    else if (item.type === "group") group(item, "");
    else if (item.type === "display") {
      if (item.text) intro(item);
    } else {
      const made = questionFrom(item, [], undefined);
      if (made.question || made.after.length > 0) loose ??= category(plan.title, [], plan.titleTexts);
      if (made.question) loose!.questions.push(made.question);
      loose?.questions.push(...made.after);
    }
  }
  // A condition on another choice's answer: the item moves under that answer, where there is one.
  for (const move of moves) {
    const target = questionOf.get(move.on);
    const option = target?.options.find((o) => o.code === move.code);
    const home = plan.categories.find((c) => c.questions.includes(move.question));
    if (!target || !option || !home || target === move.question) {
      const about = `${quoted(textOf.get(move.on) ?? move.on)} = ${move.code}`;
      losses.note({
        kind: "condition",
        at: { linkId: move.question.linkId, name: move.question.title, unit: "question" },
        about,
      });
      continue;
    }
    home.questions.splice(home.questions.indexOf(move.question), 1);
    option.sub.push(move.question);
  }
  plan.categories = plan.categories.filter((c) => !emptied.has(c) || c.questions.length > 0);
  const total = totalOf(plan, totals);
  for (const t of totals) if (t !== total) losses.note({ kind: t.kind, at: asQuestion(t.item) });
  if (total) {
    plan.scoreTitle = cut(nameOf(total.item), SCORE_TITLE_MAX);
    if (total.item.text?.trim()) plan.scoreTitleTexts = trimmed(readTranslations(total.item._text), SCORE_TITLE_MAX);
    // Its display, unit and the like: the survey's total has a title only.
    const at: LossPlace = { linkId: total.item.linkId, name: nameOf(total.item), unit: "total" };
    for (const [key, value] of Object.entries(total.item))
      if (!ITEM_KEYS.has(key) && key !== "initial") losses.property(at, key, value);
    for (const e of total.item.extension ?? []) if (!TOTAL_EXTENSIONS.has(lastPart(e.url))) losses.extension(at, e);
  }
  plan.instrument = instrumentOf(q, total ? codesOf(total.item.code) : []);
  settleLanguages(plan, q.language, losses);
  plan.notKept = losses.lines(culture);
  return plan;
}
