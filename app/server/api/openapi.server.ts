import { z, type ZodType } from "zod";
import { errorStatus } from "~/domain/errors";
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

const envelope = {
  type: "object",
  required: ["Type", "Error"],
  properties: {
    Type: { type: "string", enum: Object.keys(errorStatus) },
    Error: { type: "string" },
  },
};

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
      ],
      ...(r.body
        ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(r.body) } } } }
        : {}),
      responses: {
        [ok]:
          ok === 204 || !r.response
            ? { description: "Done" }
            : { description: "Done", content: { "application/json": { schema: jsonSchema(r.response) } } },
        default: {
          description: "An error of the catalogue",
          content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
        },
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
