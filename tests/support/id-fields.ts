import type { z } from "zod";
import { IdParamSchema, IdSchema } from "~/domain/id-schema";

/**
 * The id-like fields of a request schema: a field that is one of the shared id schemas, or whose name says
 * it holds ids (`id`, `surveyId`, `AnswerOptionIds`, …) and that takes numbers. Each is named by its place
 * from the schema's root: object keys, and "*" for every element of a list. Where a schema offers several
 * shapes (a union), the one the given value fits is walked, so that a place found is one a request of that
 * shape may carry.
 */

export type Place = (string | number)[];
export interface IdField {
  /** Keys from the root; "*" for each element of a list, "{}" for a value of a record (keyed by ids). */
  at: string[];
  /** The field holds a list of ids. */
  list: boolean;
  /** The field is the key of a record (ids as object keys, JSON's keys being strings). */
  key?: boolean;
}

/** The key a record's value is sent under: an id of the right form. */
const RECORD_KEY = "1";

const ID_NAME = /^(id|.*[a-z]Ids?)$/;
/** Names that say "id" but hold something else: the status a survey is changed to (0–5). */
const NOT_IDS = new Set(["newStatusId"]);

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional, nullable, default, pipe and the like. */
function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    const def = defOf(s);
    if (def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else if (def.type === "lazy" && def.getter) s = def.getter();
    else return s;
  }
}

/** Whether a schema is (wraps) one of the shared id schemas. */
function isSharedId(s: z.ZodType): boolean {
  for (;;) {
    if (s === IdSchema || s === IdParamSchema) return true;
    const def = defOf(s);
    if (def.innerType) s = def.innerType;
    else return false;
  }
}

const takesNumbers = (s: z.ZodType) => defOf(unwrap(s)).type === "number";

export function idFields(schema: z.ZodType | undefined, value: unknown, at: string[] = []): IdField[] {
  if (!schema) return [];
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === "union" && def.options) {
    const fitting = def.options.find((o) => o.safeParse(value).success) ?? def.options[0];
    return fitting ? idFields(fitting, value, at) : [];
  }
  if (def.type === "intersection" && def.left && def.right) {
    return [...idFields(def.left, value, at), ...idFields(def.right, value, at)];
  }
  if (def.type === "array" && def.element) {
    const first = Array.isArray(value) ? (value as unknown[])[0] : undefined;
    return idFields(def.element, first, [...at, "*"]);
  }
  if (def.type === "record" && def.keyType && def.valueType) {
    // A record keyed by ids: its key is one when it takes "1" but not "x".
    const keyedById = def.keyType.safeParse(RECORD_KEY).success && !def.keyType.safeParse("x").success;
    const values = idFields(def.valueType, undefined, [...at, "{}"]);
    if (values.length === 0 && defOf(unwrap(def.valueType)).type === "array") {
      const element = defOf(unwrap(def.valueType)).element;
      if (element && isSharedId(element)) values.push({ at: [...at, "{}"], list: true });
    }
    return [...(keyedById ? [{ at, list: false, key: true }] : []), ...values];
  }
  if (def.type !== "object" || !def.shape) return [];
  const out: IdField[] = [];
  const here = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  for (const [key, field] of Object.entries(def.shape)) {
    if (NOT_IDS.has(key)) continue;
    const inner = unwrap(field);
    const innerDef = defOf(inner);
    if (innerDef.type === "array" && innerDef.element) {
      const element = innerDef.element;
      if (isSharedId(element) || (ID_NAME.test(key) && takesNumbers(element))) {
        out.push({ at: [...at, key], list: true });
        continue;
      }
    } else if (isSharedId(field) || (ID_NAME.test(key) && takesNumbers(field))) {
      out.push({ at: [...at, key], list: false });
      continue;
    }
    out.push(...idFields(field, here[key], [...at, key]));
  }
  return out;
}

/**
 * A copy of the value with the field set to `bad` (in every element of a list on its way; a list that is
 * absent or empty gets one element holding the field). A list of ids becomes `[bad]`.
 */
export function withField(value: unknown, field: IdField, bad: unknown): unknown {
  const set = (node: unknown, rest: string[]): unknown => {
    if (rest.length === 0) {
      if (field.key) return { [String(bad)]: [] };
      return field.list ? [bad] : bad;
    }
    const [key, ...more] = rest;
    if (key === "{}") return { [RECORD_KEY]: set(undefined, more) };
    if (key === "*") {
      const list = Array.isArray(node) && node.length > 0 ? node : [{}];
      return list.map((element) => set(element, more));
    }
    const object = node && typeof node === "object" && !Array.isArray(node) ? (node as Record<string, unknown>) : {};
    return { ...object, [key]: set(object[key], more) };
  };
  return set(value, field.at);
}

/**
 * How the schema's refusal names the field sent as `bad`: "body.SurveyId", "body.AnswerOptionIds.0",
 * "query.surveyId", "body.Filters.PreliminaryQuestionsSelection.2147483648" (a record's key).
 */
export function issuePath(where: string, field: IdField, bad?: unknown): string {
  const parts = field.at.map((k) => (k === "*" ? "0" : k === "{}" ? RECORD_KEY : k));
  const tail = field.key ? [String(bad ?? "<key>")] : field.list ? ["0"] : [];
  return [where, ...parts, ...tail].join(".");
}
