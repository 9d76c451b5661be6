import type { Context, Hono } from "hono";
import { z, type ZodObject, type ZodType } from "zod";
import {
  bodyTypesOf,
  mediaTypeOf,
  type AnswerOf,
  type BodyOf,
  type Contract,
  type HeadersOf,
  type ParamsOf,
  type QueryOf,
} from "~/contracts/contract";
import { AppError } from "~/domain/errors";
import { bodyText, type ApiEnv } from "./body.server";
import { IDEMPOTENCY_HEADER_NAME, idempotent } from "./idempotency.server";
import { jsonAnswer } from "./in-process.server";
import type { Caller, ApiDeps } from "./types.server";

export interface RouteInput<P, Q, B, H = unknown> {
  c: Context;
  deps: ApiDeps;
  caller: Caller;
  params: P;
  query: Q;
  body: B;
  headers: H;
}

type Handler<C extends Contract> = (
  input: RouteInput<ParamsOf<C>, QueryOf<C>, BodyOf<C>, HeadersOf<C>>,
) => Promise<(C["status"] extends 204 ? void | null : AnswerOf<C>) | Response>;

/** One endpoint as the server mounts it: its contract (~/contracts) and the handler that answers it. */
export type RouteDef<C extends Contract = Contract> = C & { handler: Handler<C> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = Contract & { handler: (input: RouteInput<any, any, any, any>) => Promise<unknown> };

/** The handler of an endpoint's contract; the handler's input and answer are typed by the contract's schemas. */
export function route<const C extends Contract>(c: C, handler: Handler<C>): AnyRoute {
  return { ...c, handler } as AnyRoute;
}

/** The same endpoint under another path (the specification's spellings with and without a trailing slash). */
export function alias(r: AnyRoute, path: string, summary = r.summary): AnyRoute {
  return { ...r, path, summary };
}

/**
 * Where in a request value a string holds the NUL character, or null. PostgreSQL cannot store it in text,
 * and no survey text needs it, so every API request with one is refused on both databases alike.
 */
function nulPlace(value: unknown, where: string): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? where : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPlace(value[i], `${where}.${i}`);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      const found = nulPlace(key, `${where}.${key}`) ?? nulPlace(v, `${where}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

function parse<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const nul = nulPlace(value, where);
  if (nul) throw new AppError("VALIDATION_ERROR", `${nul}: text may not contain the NUL character`);
  const result = schema.safeParse(value);
  if (!result.success) {
    const detail = result.error.issues
      .map((i) => `${where}${i.path.length ? "." + i.path.join(".") : ""}: ${i.message}`)
      .join("; ");
    throw new AppError("VALIDATION_ERROR", detail, z.treeifyError(result.error));
  }
  return result.data;
}

function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const url = new URL(c.req.url);
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

function headerObject(c: Context, schema: ZodObject): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, c.req.header(name)]));
}

/** No request of the API nests deeper than a few levels; a body nested deeper than this is refused. */
export const MAX_JSON_DEPTH = 32;

/** How deep objects and arrays nest in a JSON text, counted without parsing it (so without recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      if (++depth > deepest) deepest = depth;
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) depth--;
  }
  return deepest;
}

async function readJson(c: Context, types: readonly string[]): Promise<unknown> {
  const type = mediaTypeOf(c.req.header("content-type") ?? "");
  const text = await bodyText(c);
  if (text.length === 0) return undefined;
  if (!types.includes(type)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Send ${types.join(" or ")}`);
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new AppError("VALIDATION_ERROR", `The body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("VALIDATION_ERROR", "The body is not valid JSON");
  }
}

export function mount(
  app: Hono<{ Bindings: ApiEnv }>,
  deps: ApiDeps,
  routes: AnyRoute[],
  authenticate: (c: Context, options: { beforeTerms: boolean }) => Promise<Caller>,
) {
  for (const def of routes) {
    app.on(def.method.toUpperCase(), def.path, async (c) => {
      const caller = def.public
        ? (null as unknown as Caller)
        : await authenticate(c, { beforeTerms: def.beforeTerms === true });
      const answer = async (deps: ApiDeps): Promise<Response> => {
        const params = parse(def.params, c.req.param(), "path");
        const query = parse(def.query, queryObject(c), "query");
        const headers = def.headers ? parse(def.headers, headerObject(c, def.headers), "header") : undefined;
        const body = def.body ? parse(def.body, await readJson(c, bodyTypesOf(def)), "body") : undefined;
        const result = await def.handler({ c, deps, caller, params, query, body, headers });
        if (result instanceof Response) return result;
        if (def.status === 204) return c.body(null, 204);
        return jsonAnswer(c, result, def.status ?? 200);
      };
      // A patient's link has no account to keep its keys under: its writes go as they come (an upload sent twice
      // meets its own file name, refused as a duplicate).
      const key = def.idempotent && caller && !caller.link ? c.req.header(IDEMPOTENCY_HEADER_NAME) : undefined;
      return key === undefined ? answer(deps) : idempotent(c, deps, caller, key, answer);
    });
  }
}
