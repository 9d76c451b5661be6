import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FHIR_IMPORT_MAX_QUESTIONS } from "~/contracts/fhir";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { questionnaireFile } from "./fhir-items";
import { read, useStatisticsWorld } from "./statistics-support";

/**
 * What the FHIR import takes (docs/decisions/040-fhir.md): a Questionnaire as application/fhir+json or
 * application/json; a file that is not a Questionnaire, not JSON or too large, and a Questionnaire with no
 * question a survey holds or with too many, create nothing and say why, in the caller's words.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const file = questionnaireFile;

describe.each(dialects)("FHIR import on %s", (kind) => {
  const { world } = useStatisticsWorld(kind, () => idp);

  it("what is not a Questionnaire, not JSON or too large creates nothing and says why", async () => {
    const w = world();
    const count = async () =>
      Number(
        (await w.db
          .selectFrom("surveys")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst())!.n,
      );
    const before = await count();
    const patient = await w.call("editor", "POST", "/surveys/fhir-import", file("not-a-questionnaire.json"));
    expect(patient.status).toBe(400);
    expect((await patient.json()).Error).toContain("A Patient is not a Questionnaire");
    const notJson = await w.raw("editor", "POST", "/surveys/fhir-import", {
      body: "{ not json",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).Error).toContain("not valid JSON");
    const big = { ...file("vitals.json"), description: "x".repeat(3_100_000) };
    expect((await w.call("editor", "POST", "/surveys/fhir-import", big)).status).toBe(413);
    const broken = { resourceType: "Questionnaire", item: [{ type: "string" }] };
    const res = await w.call("editor", "POST", "/surveys/fhir-import", broken);
    expect(res.status).toBe(400);
    expect((await res.json()).Error).toContain("item.0.linkId");
    expect((await w.call("approver", "POST", "/surveys/fhir-import", file("vitals.json"))).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it("takes application/fhir+json and application/json, with or without charset; nothing else", async () => {
    const w = world();
    const body = JSON.stringify(file("screening.json"));
    for (const type of [
      "application/fhir+json",
      "application/fhir+json; charset=utf-8",
      "application/json",
      "application/json;charset=UTF-8",
    ]) {
      const res = await w.raw("editor", "POST", "/surveys/fhir-import?preview=true", {
        body,
        headers: { "content-type": type },
      });
      expect((await read(res, 200)).Title, type).toBe("Mood screening");
    }
    const made = await w.raw("editor", "POST", "/surveys/fhir-import", {
      body,
      headers: { "content-type": "application/fhir+json; charset=utf-8" },
    });
    expect((await read(made, 201)).Title).toBe("Mood screening");
    const text = await w.raw("editor", "POST", "/surveys/fhir-import?preview=true", {
      body,
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect((await text.json()).Error).toContain("application/fhir+json");
  });

  it("a Questionnaire with no question a survey holds, or with too many, is refused in the caller's words", async () => {
    const w = world();
    const count = async () =>
      Number(
        (await w.db
          .selectFrom("surveys")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst())!.n,
      );
    const before = await count();
    const refusal = async (resource: unknown, preview: boolean) => {
      const res = await w.call("editor", "POST", `/surveys/fhir-import${preview ? "?preview=true" : ""}`, resource);
      return read(res, 400);
    };
    const empty = { resourceType: "Questionnaire", status: "draft", title: "Leer" };
    const onlyText = { ...empty, item: [{ linkId: "t", type: "display", text: "Welcome" }] };
    const onlyRepeats = {
      ...empty,
      item: [
        { linkId: "kin", type: "group", text: "Relatives", repeats: true, item: [{ linkId: "a", type: "string" }] },
      ],
    };
    for (const resource of [empty, onlyText, onlyRepeats]) {
      for (const preview of [true, false]) {
        const answer = await refusal(resource, preview);
        expect(answer).toMatchObject({ Type: "VALIDATION_ERROR", Reason: "empty" });
        expect(answer.Error).toContain("Der Fragebogen enthält keine Frage, die eine Umfrage aufnehmen kann");
      }
    }
    // What refused the items is said with it.
    expect((await refusal(onlyRepeats, false)).Error).toContain("Die Gruppe „Relatives“ wiederholt sich");

    const many = (n: number) => ({
      ...empty,
      item: [
        {
          linkId: "g",
          type: "group",
          text: "Viele",
          item: Array.from({ length: n }, (_, i) => ({ linkId: `q${i}`, type: "string", text: `Frage ${i}` })),
        },
      ],
    });
    const most = await read(
      await w.call("editor", "POST", "/surveys/fhir-import?preview=true", many(FHIR_IMPORT_MAX_QUESTIONS)),
    );
    expect(most.Questions).toBe(FHIR_IMPORT_MAX_QUESTIONS);
    const over = await refusal(many(FHIR_IMPORT_MAX_QUESTIONS + 1), false);
    expect(over).toMatchObject({ Type: "VALIDATION_ERROR", Reason: "tooMany" });
    expect(over.Error).toContain(`${FHIR_IMPORT_MAX_QUESTIONS + 1} Fragen`);
    expect(over.Error).toContain(`höchstens ${FHIR_IMPORT_MAX_QUESTIONS}`);

    // In English for a caller who speaks it.
    await read(await w.call("editor", "POST", "/users/current/culture?culture=en-US"), 204);
    try {
      expect((await refusal(onlyText, true)).Error).toContain("The questionnaire holds no question a survey can hold");
      expect((await refusal(many(FHIR_IMPORT_MAX_QUESTIONS + 1), true)).Error).toContain(
        `an imported survey has at most ${FHIR_IMPORT_MAX_QUESTIONS}`,
      );
    } finally {
      await read(await w.call("editor", "POST", "/users/current/culture?culture=de-DE"), 204);
    }
    expect(await count()).toBe(before);
  });
});
