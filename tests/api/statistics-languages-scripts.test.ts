import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { translateFixture } from "./languages-support";
import {
  allQuestions,
  compare,
  exportTo,
  psppOutput,
  runPspp,
  runR,
  type Exported,
} from "./statistics-scripts-support";
import { useStatisticsWorld, utf8 } from "./statistics-support";

/**
 * The export's scripts with Turkish and Arabic labels (docs/decisions/056-statistics-languages.md): R and GNU
 * PSPP read them as UTF-8, count as the app does, and label the case's language.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe("statistics scripts with Turkish and Arabic labels", () => {
  const { world, fixture } = useStatisticsWorld("sqlite", () => idp);
  const exports: Exported[] = [];
  beforeAll(async () => {
    const f = fixture();
    await translateFixture(world, f.survey, f.cases);
  });
  afterAll(() => {
    for (const e of exports) rmSync(e.dir, { recursive: true, force: true });
  });

  it.each([
    ["tr", "de-DE"],
    ["ar", "en-US"],
  ])("in %s (%s): R and PSPP count as the app does, with the labels intact", async (language, culture) => {
    const f = fixture();
    const e = await exportTo(world, f.survey, culture, language);
    exports.push(e);
    const asked = allQuestions(e.stats).length;
    const spssNames = e.vars.map((v) => v[0]).filter((n) => n.startsWith("Q") || n.startsWith("P"));
    expect(compare(e, runR(e.dir), "R")).toBe(asked);
    const spss = runPspp(e.dir, [...spssNames, "Language"]);
    expect(compare(e, spss, "SPSS")).toBe(asked);
    // The case's language by its stable code: de 1, tr 3, ar 4, whatever the labels' language.
    expect(Object.fromEntries(spss.get("Language")!)).toEqual({ "v:1": 3, "v:3": 2, "v:4": 1, n: 6 });
    const feeling = e.stats.CategoryStatistics[0].QuestionStatistics.find((q) => q.QuestionId === f.q.feeling)!;
    const answers = feeling.AnswerStatistics.map((a) => a.AnswerOptionText);
    const sex = e.vars.find((v) => v[0] === `P${f.sex.id}`)!;
    // R: the factor's levels, a variable's label and the case's language as the app has them, in UTF-8.
    const out = execFileSync(
      "Rscript",
      [
        "-e",
        `source("responses.R"); x <- responses[["Q${f.q.feeling}"]]; cat(levels(x), attr(x, "label"), sep = "\\n"); ` +
          `cat(attr(responses[["P${f.sex.id}"]], "label"), "\\n", sep = ""); ` +
          `l <- table(responses$Language); cat(paste(names(l), l, sep = "="), sep = "\\n")`,
      ],
      { cwd: e.dir, encoding: "utf8", env: { ...process.env, LANG: "C.UTF-8" } },
    );
    const lines = out.trim().split("\n");
    expect(lines.slice(0, 4)).toEqual([...answers, feeling.QuestionTitle]);
    expect(lines[4]).toBe(sex[3]);
    const name = (code: string) => new Intl.DisplayNames([culture], { type: "language" }).of(code)!;
    const counted = Object.fromEntries(lines.slice(5).map((l) => l.split("=")));
    expect(counted[name("tr").replace(/^./, (c) => c.toUpperCase())]).toBe("2");
    expect(counted[name("ar").replace(/^./, (c) => c.toUpperCase())]).toBe("1");
    expect(counted[name("de").replace(/^./, (c) => c.toUpperCase())]).toBe("3");
    // PSPP read the labels as UTF-8 (cut at SPSS's byte limits on whole characters).
    for (const text of [feeling.QuestionTitle, ...answers]) expect(psppOutput).toContain(text);
    // The script files themselves: R's is ASCII (escapes), the others UTF-8 as written.
    expect([...utf8.decode(e.files["responses.R"])].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(utf8.decode(e.files["responses.sps"])).toContain(answers[0]);
    expect(utf8.decode(e.files["responses.do"])).toContain(answers[0]);
  });
});
