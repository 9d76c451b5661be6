import { z, type ZodType } from "zod";
import { bodyTypesOf } from "~/contracts/contract";
import { errorStatus, type ErrorType } from "~/domain/errors";
import { UPLOAD_PATH } from "./body.server";
import type { AnyRoute } from "./route.server";

type JsonSchema = Record<string, unknown>;

/** Named schemas (those with a meta id), collected into components.schemas as the document is made. */
let components: Record<string, JsonSchema> = {};

function jsonSchema(schema: ZodType): JsonSchema {
  const raw = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  const text = JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _drop, $defs, ...rest } = JSON.parse(text) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  Object.assign(components, $defs ?? {});
  return rest;
}

function parameters(schema: ZodType | undefined, where: "query" | "path" | "header") {
  if (!schema) return [];
  const json = jsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    schema: s,
  }));
}

const idempotencyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "A client-made id of this write, the same on every repeat of it: a repeat answers the first answer " +
    "(with the header Idempotent-Replayed: true) and writes nothing; a key used for another request is refused (422)",
  schema: { type: "string", pattern: "^[A-Za-z0-9_-]{8,100}$" },
};

const envelope = {
  type: "object",
  required: ["Type", "Error"],
  properties: {
    Type: { type: "string", enum: Object.keys(errorStatus) },
    Error: { type: "string" },
    ErasedAt: { type: "string", description: "CASE_ALREADY_ERASED: when the patient id's case was erased" },
    Reason: {
      type: "string",
      description:
        "CASE_ALREADY_ERASED: why (consent, retention, wrongPatient); VALIDATION_ERROR of a FHIR import: why " +
        "the Questionnaire makes no survey (empty, tooMany)",
    },
  },
};

/**
 * Every error type of the catalogue a route may answer: those every route may (unexpected, database
 * unreachable), those that follow from what it takes (sign-in, input, a body), and its own.
 */
export function documentedErrors(r: AnyRoute): Set<ErrorType> {
  const types: ErrorType[] = ["INTERNAL_ERROR", "SERVICE_UNAVAILABLE"];
  if (!r.public) types.push("UNAUTHORIZED", "FORBIDDEN");
  if (!r.public && !r.beforeTerms) types.push("TOS_NOT_ACCEPTED");
  if (r.params || r.query || r.body || r.headers) types.push("VALIDATION_ERROR");
  // Any write may declare a body over its limit; those that read one may get one of another type.
  if (r.method !== "get") types.push("PAYLOAD_TOO_LARGE");
  if (r.body || `/api${r.path}` === UPLOAD_PATH) types.push("UNSUPPORTED_MEDIA_TYPE");
  if (r.idempotent) types.push("VALIDATION_ERROR", "IDEMPOTENCY_KEY_REUSED");
  return new Set([...types, ...(r.errors ?? [])]);
}

/** The error answers of a route, one entry per status, each naming its types. */
function errorResponses(r: AnyRoute) {
  const byStatus = new Map<number, ErrorType[]>();
  for (const type of documentedErrors(r)) {
    const status = errorStatus[type];
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, types]) => [
        String(status),
        {
          description: types.join(", "),
          content: {
            "application/json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/ErrorEnvelope" },
                  { type: "object", properties: { Type: { enum: types } } },
                ],
              },
            },
          },
        },
      ]),
  );
}

/** A request body's schema under each media type it may come as. */
function bodyContent(body: ZodType, types: readonly string[]) {
  const schema = jsonSchema(body);
  return Object.fromEntries(types.map((type) => [type, { schema }]));
}

/** The OpenAPI 3.1 document of the REST API, made from the same zod schemas that validate it. */
export function openApiDocument(routes: AnyRoute[], serverUrl: string) {
  components = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, "{$1}");
    const ok = r.status ?? 200;
    paths[path] ??= {};
    paths[path][r.method] = {
      summary: r.summary,
      tags: [r.tag],
      security: r.public ? [] : [{ bearer: [] }, { session: [] }],
      parameters: [
        ...parameters(r.params, "path"),
        ...parameters(r.query, "query"),
        ...parameters(r.headers, "header"),
        ...(r.idempotent ? [idempotencyParameter] : []),
      ],
      ...(r.body ? { requestBody: { required: true, content: bodyContent(r.body, bodyTypesOf(r)) } } : {}),
      responses: {
        ...(r.alsoAnswers
          ? {
              [r.alsoAnswers.status]: {
                description: r.alsoAnswers.description,
                content: { "application/json": { schema: jsonSchema(r.alsoAnswers.response) } },
              },
            }
          : {}),
        [ok]:
          ok === 204 || !r.response
            ? { description: "Done" }
            : { description: "Done", content: { "application/json": { schema: jsonSchema(r.response) } } },
        ...errorResponses(r),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Survey API", version: "1.0.0" },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { ...components, ErrorEnvelope: envelope },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        session: { type: "apiKey", in: "cookie", name: "sv_session" },
      },
    },
  };
}
