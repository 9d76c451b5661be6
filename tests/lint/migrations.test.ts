import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * A migration that has run must compute the same on every database it runs on later: it keeps the code it was
 * written with (the audit chain's hash recipes of 0011 and 0017, say) in itself, and imports nothing of the
 * app's live code, which may change after it shipped (eslint.config.js).
 */
const eslint = new ESLint({ cwd: process.cwd() });
const FOLDER = "app/server/db/migrations";

async function refusals(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return result!.messages
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message);
}

/** The modules a source imports, statically or dynamically. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((m) => m[1]);
}

describe("migrations", () => {
  it("are refused the app's live code, however it is reached", async () => {
    const file = `${FOLDER}/0099_next.ts`;
    const live = [
      'import { auditRowHash } from "~/server/services/audit-chain.server";\nauditRowHash;\n',
      'import { auditRowHash } from "../../services/audit-chain.server";\nauditRowHash;\n',
      'import { getEnv } from "~/server/env.server";\ngetEnv;\n',
      'import { dialectOf } from "~/server/db/db.server";\ndialectOf;\n',
      'export const m = () => import("~/server/services/audit-chain.server");\n',
      'import { Q } from "~/components/fill/Q";\nQ;\n',
    ];
    for (const source of live) {
      expect(await refusals(file, source), source).toEqual([
        expect.stringContaining("A migration keeps the code it was written with"),
      ]);
    }
    // Packages and the modules beside it.
    expect(await refusals(file, 'import { sql } from "kysely";\nsql;\n')).toEqual([]);
    expect(await refusals(file, 'import { createHash } from "node:crypto";\ncreateHash;\n')).toEqual([]);
    expect(await refusals(file, 'import { schemaHelpers } from "./helpers";\nschemaHelpers;\n')).toEqual([]);
    expect(await refusals(`${FOLDER}/helpers.ts`, 'import { dialectOf } from "../db.server";\ndialectOf;\n')).toEqual(
      [],
    );
  });

  it("import nothing from services, and only packages and the modules beside them", async () => {
    const files = fs.readdirSync(FOLDER).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
    expect(files).toContain("0011_audit_chain.ts");
    expect(files).toContain("0017_erasure.ts");
    const outside = files.flatMap((name) =>
      importsOf(fs.readFileSync(path.join(FOLDER, name), "utf8"))
        .filter((spec) => spec.startsWith("~/") || (spec.startsWith("../") && spec !== "../db.server"))
        .map((spec) => `${name}: ${spec}`),
    );
    expect(outside).toEqual([]);
    const results = await eslint.lintFiles(files.map((name) => path.join(FOLDER, name)));
    const refused = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
        .map((m) => `${path.relative(process.cwd(), r.filePath)}:${m.line} ${m.message}`),
    );
    expect(refused).toEqual([]);
  });
});
