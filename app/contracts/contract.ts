import type { z } from "~/domain/zod";

type ZodType = z.ZodType;
type ZodObject = z.ZodObject;
import type { ErrorType } from "~/domain/errors";

/**
 * One endpoint of the survey API, as its server handler, the loaders' in-process client, the browser's client
 * and the OpenAPI document all take it: method, path with its parameters, the request's and the answer's
 * schemas, and the error types it may answer beyond those every endpoint may. Client-safe: schemas and words
 * only, no server code.
 */
export interface Contract {
  method: "get" | "post" | "put" | "delete";
  /** The path under /api, parameters as `:name` (e.g. "/surveys/:id"). */
  path: string;
  summary: string;
  tag: string;
  /** Public endpoints need no sign-in. */
  public?: boolean;
  /**
   * Also answers a signed-in person who has not accepted the terms of service yet (every other endpoint
   * refuses them with TOS_NOT_ACCEPTED), so that a client can learn it has to send them to the terms page.
   */
  beforeTerms?: boolean;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /**
   * The media types the body may come as, each with or without parameters (charset); application/json when
   * not said.
   */
  bodyTypes?: readonly string[];
  /** Request headers the endpoint reads, by their names (matched case-insensitively). */
  headers?: ZodObject;
  response?: ZodType;
  /** Status of a successful answer; 204 sends no body. */
  status?: 200 | 201 | 204;
  /**
   * A second successful answer beside `status`, with a schema of its own: a write's preview, which creates
   * nothing, answers 200.
   */
  alsoAnswers?: { status: 200; description: string; response: ZodType };
  /**
   * The catalogue's errors this endpoint answers beyond those every endpoint may (bad input, sign-in,
   * permission, body size and type, database unreachable, unexpected): listed per status in the OpenAPI
   * document.
   */
  errors?: readonly ErrorType[];
  /**
   * A write that creates something: an Idempotency-Key header makes a repeat of it answer the first answer
   * instead of writing again.
   */
  idempotent?: boolean;
}

/** Declares one endpoint's contract; its literal types (method, schemas, status) are kept. */
export function contract<const C extends Contract>(c: C): C {
  return c;
}

type Out<S> = S extends ZodType ? z.output<S> : undefined;

/** What the server's handler reads, after the schemas have checked and shaped the request. */
export type ParamsOf<C extends Contract> = Out<C["params"]>;
export type QueryOf<C extends Contract> = Out<C["query"]>;
export type BodyOf<C extends Contract> = Out<C["body"]>;
export type HeadersOf<C extends Contract> = Out<C["headers"]>;

type AlsoOf<C extends Contract> = C["alsoAnswers"] extends { response: infer R extends ZodType } ? z.output<R> : never;

/** The answer's type: what the response schema gives (or the second answer's), nothing for a 204. */
export type AnswerOf<C extends Contract> = C["status"] extends 204
  ? undefined
  : (C["response"] extends ZodType ? z.output<C["response"]> : unknown) | AlsoOf<C>;

/** The schema of a successful answer with this status. */
export function responseSchemaOf(c: Contract, status: number): ZodType | undefined {
  return c.alsoAnswers?.status === status ? c.alsoAnswers.response : c.response;
}

/** A Content-Type's media type without its parameters (charset), in lower case. */
export const mediaTypeOf = (header: string) => header.split(";")[0]!.trim().toLowerCase();

/** The media types an endpoint takes its body as. */
export const bodyTypesOf = (c: Contract): readonly string[] => c.bodyTypes ?? ["application/json"];

/**
 * What a client sends in the path or the query string: the values as the server reads them (numbers, not the
 * strings they travel as), optional where the schema has a default or says so.
 */
type Sent<S extends ZodType> = {
  [K in keyof z.input<S>]: K extends keyof z.output<S> ? z.output<S>[K] : never;
};

/** A part of a request: optional where everything in it is. */
type Part<K extends string, T> = object extends T ? { [P in K]?: T } : { [P in K]: T };

/** A client's request to an endpoint: only the parts its contract takes, each with its type. */
export type RequestOf<C extends Contract> = (C["params"] extends ZodType
  ? Part<"params", Sent<C["params"]>>
  : { params?: undefined }) &
  (C["query"] extends ZodType ? Part<"query", Sent<C["query"]>> : { query?: undefined }) &
  (C["body"] extends ZodType ? Part<"body", z.input<C["body"]>> : { body?: undefined });

/** A client's arguments for an endpoint: the request (left out where the contract takes none), then options. */
export type CallArgs<C extends Contract, O> =
  object extends RequestOf<C> ? [request?: RequestOf<C>, options?: O] : [request: RequestOf<C>, options?: O];

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/**
 * The URL of a request, "/api/…": the path's parameters filled in and encoded, the query appended (a list as
 * its key repeated; absent values left out). The one place a client builds an API URL.
 */
export function apiUrl(c: Contract, request: { params?: unknown; query?: unknown } = {}): string {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const path = c.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${c.method} ${c.path}: the path needs ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, QueryValue>)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const query = search.toString();
  return `/api${path}${query ? `?${query}` : ""}`;
}
