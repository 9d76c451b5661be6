import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { clientContract } from "../../build-tools/client-contracts";

const sample = `import { z } from "~/domain/zod";
import { SurveySchema } from "~/domain/survey";
import { contract } from "./contract";

const tag = "Surveys";
const Listed = z.object({ Id: z.number() }).meta({ id: "Listed" });
const Paged = z.object({ take: z.number() });
const Query = Paged.extend({ q: z.string() });
export const Kept = z.object({ a: z.string() });

export const surveysApi = {
  get: contract({
    method: "get",
    path: "/surveys/:id",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "A whole survey",
    params: z.object({ id: z.number() }),
    response: SurveySchema,
  }),
  list: contract({ method: "get", path: "/surveys", tag, summary: "The list", query: Query, response: Listed }),
};
`;

describe("the contracts in the browser build", () => {
  it("keep each endpoint's method and path, and nothing the server alone reads", () => {
    const out = clientContract(sample, "surveys.ts");
    expect(out).toContain('method: "get",');
    expect(out).toContain('path: "/surveys/:id",');
    for (const gone of ["errors:", "tag", "summary", "params:", "response:", "query:", "SurveySchema,"])
      expect(out.slice(out.indexOf("export const surveysApi")), gone).not.toContain(gone);
    // The schemas made at the top level go once nothing refers to them, also through one another.
    for (const gone of ["const Listed", "const Paged", "const Query", "const tag"]) expect(out).not.toContain(gone);
    // What the module exports stays: something else may take it.
    expect(out).toContain("export const Kept");
  });

  it("leave no schema in the contracts the pages call", () => {
    for (const file of ["surveys", "patients", "responses", "attachments", "sync", "health", "dashboards"]) {
      const path = `app/contracts/${file}.ts`;
      const out = clientContract(fs.readFileSync(path, "utf8"), path);
      const start = out.search(/export const \w+Api = \{/);
      const body = out.slice(start, out.indexOf("\n};\n", start));
      expect(body, file).not.toMatch(/\b(params|query|body|headers|response|summary):/);
      expect(out, file).not.toMatch(/^const \w+ = z\./m);
    }
  });
});
