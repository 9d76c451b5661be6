import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The folders' import boundaries (eslint.config.js), tried on wrong-way imports as a newcomer might write them. */
const eslint = new ESLint({ cwd: process.cwd() });

async function refusals(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return result!.messages
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message);
}

describe("import boundaries", () => {
  it("app/domain imports nothing else of the app", async () => {
    expect(await refusals("app/domain/x.ts", 'import { log } from "~/server/log.server";\nlog;\n')).toEqual([
      expect.stringContaining("app/domain holds the shared rules"),
    ]);
    expect(await refusals("app/domain/x.ts", 'import { callApi } from "~/api-client";\ncallApi;\n')).toHaveLength(1);
    expect(await refusals("app/domain/x.ts", 'import { pagesOf } from "~/domain/fill-pages";\npagesOf;\n')).toEqual([]);
  });

  it("the endpoints' contracts import only app/domain and one another", async () => {
    expect(await refusals("app/contracts/x.ts", 'import { log } from "~/server/log.server";\nlog;\n')).toEqual([
      expect.stringContaining("app/contracts holds the endpoints' contracts"),
    ]);
    expect(await refusals("app/contracts/x.ts", 'import { callApi } from "~/api-client";\ncallApi;\n')).toHaveLength(1);
    expect(await refusals("app/contracts/x.ts", 'const m = import("~/server/db/db.server");\nm;\n')).toHaveLength(1);
    expect(await refusals("app/contracts/x.ts", 'import { Hono } from "hono";\nHono;\n')).toHaveLength(1);
    expect(
      await refusals(
        "app/contracts/x.ts",
        'import { PatientIdSchema } from "~/domain/fill-requests";\nPatientIdSchema;\n',
      ),
    ).toEqual([]);
    expect(await refusals("app/contracts/x.ts", 'import { idParam } from "./params";\nidParam;\n')).toEqual([]);
  });

  it("the offline layer and the server import no components", async () => {
    const wrong = 'import { useAnswers } from "~/components/fill/useAnswers";\nuseAnswers;\n';
    expect(await refusals("app/offline/x.ts", wrong)).toEqual([
      expect.stringContaining("The offline layer runs in the browser"),
    ]);
    expect(await refusals("app/server/x.server.ts", wrong)).toHaveLength(1);
    expect(
      await refusals("app/server/services/x.server.ts", 'import { Q } from "../../components/fill/Q";\nQ;\n'),
    ).toHaveLength(1);
    expect(
      await refusals("app/offline/x.ts", 'import { readView } from "~/domain/statistics-view";\nreadView;\n'),
    ).toEqual([]);
  });

  it("code that may run in the browser takes zod from ~/domain/zod; the server from zod itself", async () => {
    const direct = 'import { z } from "zod";\nz;\n';
    for (const file of [
      "app/domain/x.ts",
      "app/components/x.tsx",
      "app/routes/x.tsx",
      "app/offline/x.ts",
      "app/root.tsx",
    ]) {
      expect(await refusals(file, direct), file).toEqual([expect.stringContaining("imports z from ~/domain/zod")]);
    }
    expect(await refusals("app/components/x.tsx", 'import { z } from "zod/v4";\nz;\n')).toHaveLength(1);
    expect(await refusals("app/domain/x.ts", 'import { z } from "./zod";\nz;\n')).toEqual([]);
    expect(await refusals("app/routes/x.tsx", 'import { z } from "~/domain/zod";\nz;\n')).toEqual([]);
    expect(
      await refusals("app/components/x.tsx", 'import type { $ZodType } from "zod/v4/core";\nlet t: $ZodType;\nt;\n'),
    ).toEqual([]);
    expect(await refusals("app/server/x.server.ts", direct)).toEqual([]);
    // The folders' own boundaries still hold beside it.
    expect(await refusals("app/domain/x.ts", 'import { log } from "~/server/log.server";\nlog;\n')).toHaveLength(1);
  });

  it("components import no server code", async () => {
    expect(await refusals("app/components/x.tsx", 'import { getEnv } from "~/server/env.server";\ngetEnv;\n')).toEqual([
      expect.stringContaining("Browser code imports no server code"),
    ]);
    expect(await refusals("app/components/x.tsx", 'import { callApi } from "~/api-client";\ncallApi;\n')).toEqual([]);
  });

  it("holds for dynamic imports too", async () => {
    const load = (path: string) => `export const m = () => import("${path}");\n`;
    expect(await refusals("app/components/x.tsx", load("~/server/env.server"))).toEqual([
      expect.stringContaining("Browser code imports no server code"),
    ]);
    expect(await refusals("app/offline/x.ts", load("~/components/fill/useAnswers"))).toHaveLength(1);
    expect(await refusals("app/domain/x.ts", load("~/offline/sw.client"))).toHaveLength(1);
    expect(await refusals("app/server/x.server.ts", load("~/offline/fill-local"))).toHaveLength(1);
    expect(await refusals("app/components/x.tsx", load("~/offline/case-copies"))).toEqual([]);
    expect(await refusals("app/server/x.server.ts", load("./s3-store.server"))).toEqual([]);
  });

  it("holds for the top-level modules: the browser's client and entries, the root", async () => {
    const server = 'import { getEnv } from "~/server/env.server";\ngetEnv;\n';
    for (const file of ["app/api-client.ts", "app/entry.client.tsx", "app/entry.worker.ts", "app/i18n.ts"]) {
      expect(await refusals(file, server), file).toEqual([
        expect.stringContaining("Browser code imports no server code"),
      ]);
    }
    // The root and routes reach the server through `.server` modules only.
    expect(await refusals("app/root.tsx", server)).toEqual([]);
    expect(await refusals("app/root.tsx", 'import { x } from "~/server/helpers";\nx;\n')).toEqual([
      expect.stringContaining("only through `.server` modules"),
    ]);
  });

  it("keeps the offline layer and the server apart", async () => {
    expect(await refusals("app/offline/x.ts", 'import { log } from "~/server/log.server";\nlog;\n')).toEqual([
      expect.stringContaining("The offline layer runs in the browser"),
    ]);
    expect(await refusals("app/server/x.server.ts", 'import { k } from "~/offline/fill-local";\nk;\n')).toEqual([
      expect.stringContaining("browser-only offline code"),
    ]);
  });

  it("lets app/domain use only zod and Conform's zod reader of the packages", async () => {
    expect(await refusals("app/domain/x.ts", 'import { useState } from "react";\nuseState;\n')).toEqual([
      expect.stringContaining("of packages only zod"),
    ]);
    expect(await refusals("app/domain/x.ts", 'import fs from "node:fs";\nfs;\n')).toHaveLength(1);
    expect(await refusals("app/domain/x.ts", 'import { sql } from "kysely";\nsql;\n')).toHaveLength(1);
    expect(
      await refusals("app/domain/x.ts", 'import { parseWithZod } from "@conform-to/zod/v4";\nparseWithZod;\n'),
    ).toEqual([]);
  });
});
