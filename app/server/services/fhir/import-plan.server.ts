import { editingLimits, ImageSrcSchema } from "~/domain/editing";
import type { QuestionType } from "~/domain/question-types";
import { translate } from "~/server/locales.server";
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
  type Note,
  type PlanOptionOf,
} from "./import-parts.server";
import type { ImportAnswerOption, ImportEnableWhen, ImportItem, ImportQuestionnaire } from "./import-schema.server";
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
}

export interface ImportPlan {
  title: string;
  description: string;
  intro: string[];
  prelims: { linkId: string; title: string; options: { code: string; text: string; exit: boolean }[] }[];
  categories: { title: string; questions: PlanQuestion[] }[];
  notKept: string[];
}

export function importPlan(q: ImportQuestionnaire, culture: string | undefined): ImportPlan {
  const valueSets = containedValueSets(q);
  const t = (key: string, vars?: Record<string, string>) => translate(culture, `fhir.notKept.${key}`, vars);
  const notKept: string[] = [];
  for (const key of Object.keys(q))
    if (!QUESTIONNAIRE_KEYS.has(key)) notKept.push(t("questionnaire", { property: key }));

  const note: Note = (key, vars) => notKept.push(t(key, vars));
  const optionOf = (o: ImportAnswerOption, item: ImportItem) => optionOfParts<PlanQuestion>(o, item, note);
  const plan: ImportPlan = {
    title: cut(q.title?.trim() || q.name?.trim() || translate(culture, "surveys.defaultTitle"), 200),
    description: q.description ?? "",
    intro: [],
    prelims: [],
    categories: [],
    notKept,
  };
  const prelimOf = new Map<string, ImportPlan["prelims"][number]>();
  const questionOf = new Map<string, PlanQuestion>();

  /** A rule from conditions on preliminary questions, or null with the conditions listed. */
  const ruleOf = (item: ImportItem, conditions: ImportEnableWhen[], behavior: string | undefined) => {
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

  /** Later: items whose single condition is on another choice's answer become its sub-questions. */
  const moves: { question: PlanQuestion; on: string; code: string; from: PlanQuestion[] }[] = [];

  const questionFrom = (
    item: ImportItem,
    inherited: ImportEnableWhen[],
    behavior: string | undefined,
  ): { question: PlanQuestion | null; after: PlanQuestion[] } => {
    const name = nameOf(item);
    for (const key of Object.keys(item))
      if (!ITEM_KEYS.has(key)) notKept.push(t("property", { item: name, property: key }));
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
    };
    const type = item.type;
    if (type === "choice" || type === "open-choice") {
      if (type === "open-choice") notKept.push(t("openChoice", { item: name }));
      const options = item.answerOption
        ? item.answerOption.flatMap((o) => optionOf(o, item) ?? [])
        : item.answerValueSet
          ? valueSets.get(item.answerValueSet)?.map((c) => ({
              ...c,
              weight: null,
              weightingState: 2,
              exit: false,
              x: null,
              y: null,
              sub: [] as PlanQuestion[],
            }))
          : undefined;
      if (!options || options.length === 0) {
        notKept.push(t("noOptions", { item: name, valueSet: item.answerValueSet ?? "answerOption" }));
      } else {
        question.type = item.repeats ? "MultipleSelection" : "SingleSelection";
        question.multiple = item.repeats === true;
        question.options = options.slice(0, editingLimits.options).map((o) => ({
          ...o,
          text: cut(o.text, editingLimits.answerText),
          code: cut(o.code, editingLimits.value),
        }));
      }
    } else if (type === "string" || type === "text") question.type = "FreeText";
    else if (type === "date" || type === "dateTime" || type === "time") question.type = "DateTime";
    else if (type === "integer" || type === "decimal") question.type = "Numerical";
    else {
      notKept.push(t(type === "attachment" ? "attachment" : "itemType", { item: name, type }));
      return { question: null, after: [] };
    }
    for (const e of (item.extension ?? []) as Record<string, unknown>[]) {
      const url = String(e.url);
      const coding = e.valueCoding as { code?: string; display?: string } | undefined;
      if (isOwn(url, EXT.testQuestion)) question.test = e.valueBoolean === true;
      else if (url === HL7.unit && question.type === "Numerical")
        question.unit = cut(coding?.display ?? coding?.code ?? "", editingLimits.unit) || null;
      else if (isOwn(url, EXT.image) && question.options.length > 0) {
        question.type = "Image";
        const src = ImageSrcSchema.safeParse(e.valueString);
        question.image = src.success ? src.data : null;
        if (!src.success) notKept.push(t("image", { item: name }));
      } else notKept.push(t("extension", { item: name, url }));
    }
    // Conditions: preliminary rules, or a single one on another choice's answer (a sub-question).
    const conditions = [...inherited, ...(item.enableWhen ?? [])];
    const rule = ruleOf(item, conditions, item.enableBehavior ?? behavior);
    if (rule) question.rule = rule;
    else if (rule === undefined) {
      const w = conditions.length === 1 ? conditions[0] : null;
      const code = w && w.operator === "=" ? codeOfCondition(w) : null;
      if (w && code !== null) moves.push({ question, on: w.question, code, from: [] });
      else for (const c of conditions) notKept.push(t("condition", { item: name, condition: describeCondition(c) }));
    }
    // Children: files, sub-questions under this question's answers, or items placed after it.
    const after: PlanQuestion[] = [];
    const child = (c: ImportItem, inheritedConditions: ImportEnableWhen[], childBehavior?: string) => {
      if (c.type === "attachment" && !c.item?.length) {
        question.files = true;
        return;
      }
      if (c.type === "group") {
        for (const inner of c.item ?? [])
          child(inner, [...inheritedConditions, ...(c.enableWhen ?? [])], c.enableBehavior);
        return;
      }
      if (c.type === "display") {
        if (c.text) plan.intro.push(c.text);
        return;
      }
      const all = [...inheritedConditions, ...(c.enableWhen ?? [])];
      const onThis = all.find((w) => w.question === item.linkId && w.operator === "=" && codeOfCondition(w) !== null);
      const option = onThis ? question.options.find((o) => o.code === codeOfCondition(onThis)) : undefined;
      if (!onThis || !option) {
        notKept.push(t("nested", { item: nameOf(c), parent: name }));
        const made = questionFrom(c, inheritedConditions, childBehavior);
        if (made.question) after.push(made.question, ...made.after);
        return;
      }
      const rest = all.filter((w) => w !== onThis);
      const made = questionFrom({ ...c, enableWhen: rest }, [], childBehavior ?? c.enableBehavior);
      if (made.question) option.sub.push(made.question);
      after.push(...made.after);
    };
    for (const c of item.item ?? []) child(c, []);
    questionOf.set(item.linkId, question);
    return { question, after };
  };

  const category = (title: string) => {
    const made = { title: cut(title, editingLimits.categoryTitle), questions: [] as PlanQuestion[] };
    plan.categories.push(made);
    return made;
  };
  let loose: ImportPlan["categories"][number] | null = null;
  const group = (g: ImportItem, prefix: string) => {
    const title = prefix ? `${prefix} – ${nameOf(g)}` : nameOf(g);
    const target = category(title);
    for (const item of g.item ?? []) {
      if (item.type === "group") group(item, title);
      else if (item.type === "display") {
        if (item.text && item.text !== g.text) plan.intro.push(item.text);
      } else {
        const made = questionFrom(item, g.enableWhen ?? [], g.enableBehavior);
        if (made.question) target.questions.push(made.question);
        target.questions.push(...made.after);
      }
    }
  };
  for (const item of q.item ?? []) {
    if (item.type === "group" && item.linkId === "preliminary") {
      for (const p of item.item ?? []) {
        const options = (p.answerOption ?? []).flatMap((o) => optionOf(o, p) ?? []);
        if (p.type !== "choice" || options.length === 0) {
          notKept.push(t("itemType", { item: nameOf(p), type: p.type }));
          continue;
        }
        const prelim = {
          linkId: p.linkId,
          title: cut(nameOf(p), editingLimits.attributeTitle),
          options: options.map((o) => ({ code: o.code, text: o.text, exit: o.exit })),
        };
        plan.prelims.push(prelim);
        prelimOf.set(p.linkId, prelim);
      }
    } else if (item.type === "group") group(item, "");
    else if (item.type === "display") {
      if (item.text) plan.intro.push(item.text);
    } else {
      loose ??= category(plan.title);
      const made = questionFrom(item, [], undefined);
      if (made.question) loose.questions.push(made.question);
      loose.questions.push(...made.after);
    }
  }
  // A condition on another choice's answer: the item moves under that answer, where there is one.
  for (const move of moves) {
    const target = questionOf.get(move.on);
    const option = target?.options.find((o) => o.code === move.code);
    const home = plan.categories.find((c) => c.questions.includes(move.question));
    if (!target || !option || !home || target === move.question) {
      notKept.push(t("condition", { item: move.question.title, condition: `${move.on} = ${move.code}` }));
      continue;
    }
    home.questions.splice(home.questions.indexOf(move.question), 1);
    option.sub.push(move.question);
  }
  return plan;
}
