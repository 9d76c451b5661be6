import { describe, expect, it } from "vitest";
import deAuthoring from "../../locales/de-DE/authoring.json";
import deCommon from "../../locales/de-DE/common.json";
import enAuthoring from "../../locales/en-US/authoring.json";
import enCommon from "../../locales/en-US/common.json";
import { mergeTables, type LocaleTable } from "~/i18n";
import { canonicalField, changesOf, entityName, FIELDS, wordKey, type TrailNames } from "./audit-words";
import { caseEventKey, HANDOVER_EVENTS } from "./audit-reading";
import { HANDOVER_ENDED_BY } from "./handover";
import { translatedPlaceKey, type TranslatedText } from "./audit-translations";
import type { TranslatableField } from "./content-languages";
import { questionTypes } from "./question-types";
import { surveyStatuses } from "./survey-status";

const names: TrailNames = {
  questions: new Map([[7, "Körpergröße"]]),
  options: new Map([
    [63, "gut"],
    [64, "schlecht"],
  ]),
  categories: new Map([[3, "Messung"]]),
  attributes: new Map([[5, "Mobilität"]]),
  preliminaryOptions: new Map([
    [51, "bettlägerig"],
    [52, "mobil"],
  ]),
  teams: new Map([
    [1, "Station A"],
    [2, "Station B"],
  ]),
  tags: new Map([[9, "Wunde"]]),
};

describe("the trail in words", () => {
  it("reads a database column and the API's field alike", () => {
    expect(canonicalField("is_exit_answer")).toBe("IsExitAnswer");
    expect(canonicalField("IsExitAnswer")).toBe("IsExitAnswer");
    expect(canonicalField("title")).toBe("Title");
  });

  it("names each changed field with its values as people read them, never ids or flags", () => {
    const { changes, more } = changesOf(
      JSON.stringify({ text: "gut", is_exit_answer: 0, question_id: 7, weight: null }),
      JSON.stringify({ text: "sehr gut", is_exit_answer: 1, question_id: 7, weight: 2 }),
      names,
      "answer_option",
    );
    expect(more).toBe(false);
    expect(changes).toEqual([
      { field: "Text", before: { text: "gut" }, after: { text: "sehr gut" } },
      { field: "IsExitAnswer", before: { word: "no" }, after: { word: "yes" } },
      { field: "Weight", before: { none: true }, after: { text: "2" } },
    ]);
  });

  it("shows teams and tags by name, HTML as its text, statuses and types as words, and says when more changed", () => {
    const { changes, more } = changesOf(
      JSON.stringify({ UserTeamPermissions: [1], IntroText: "<p>Hallo <b>Welt</b></p>", Status: "Draft", Secret: 1 }),
      JSON.stringify({ UserTeamPermissions: [1, 2], IntroText: "", Status: "Active", Secret: 2 }),
      names,
      "survey",
    );
    expect(changes).toEqual([
      { field: "UserTeamPermissions", before: { text: "Station A" }, after: { text: "Station A, Station B" } },
      { field: "IntroText", before: { text: "Hallo Welt" }, after: { none: true } },
      { field: "Status", before: { word: "status.Draft" }, after: { word: "status.Active" } },
    ]);
    expect(more).toBe(true);
  });

  it("gives a new order by the names of what was reordered", () => {
    expect(changesOf("[64,63]", "[63,64]", names, "answer_option").changes).toEqual([
      { field: "order", before: { text: "schlecht, gut" }, after: { text: "gut, schlecht" } },
    ]);
  });

  it("lists what a creation set, and nothing for an unchanged field", () => {
    const created = changesOf(null, JSON.stringify({ Title: "Größe", Type: "Numerical", Sort: 0 }), names, "question");
    expect(created.changes.map((c) => c.field)).toEqual(["Title", "Type", "Sort"]);
    expect(created.changes[1]!.after).toEqual({ word: "type.Numerical" });
    const same = changesOf(
      JSON.stringify({ Title: "A", Unit: "cm" }),
      JSON.stringify({ Title: "B", Unit: "cm" }),
      names,
      "question",
    );
    expect(same.changes.map((c) => c.field)).toEqual(["Title"]);
  });

  it("keeps each line of what an import did not keep whole, however many", () => {
    const lines = Array.from({ length: 12 }, (_, i) => `${i + 1} questions: ${"x".repeat(150)}`);
    const { changes } = changesOf(null, JSON.stringify({ Title: "PHQ-9", NotKept: lines }), names, "survey");
    expect(changes.find((c) => c.field === "NotKept")!.after).toEqual({ lines });
  });

  it("names what an entry is about: as it is now, else as the entry recorded it", () => {
    expect(entityName("question", "7", null, null, names)).toBe("Körpergröße");
    expect(entityName("patient_form_attribute", "5", null, null, names)).toBe("Mobilität");
    expect(entityName("category", "99", JSON.stringify({ title: "Gelöscht" }), null, names)).toBe("Gelöscht");
    expect(entityName("survey", "1", null, JSON.stringify({ Status: "Active" }), names)).toBeNull();
  });

  it("lists what a deletion found, a question's stored type by its name, and leaves out what was empty", () => {
    const row = {
      id: 7,
      survey_id: 1,
      category_id: 3,
      parent_answer_option_id: null,
      title: "Größe",
      type: 1,
      sort: 0,
      allow_file_attachments: 0,
      allow_multiple_answers: 0,
      unit: null,
      is_test_question: 0,
      image_src: null,
      dependence_type: "SHOW",
      subQuestions: 0,
    };
    const deleted = changesOf(JSON.stringify(row), null, names, "question");
    expect(deleted.more).toBe(false);
    expect(deleted.changes).toEqual([
      { field: "CategoryId", before: { text: "Messung" }, after: { none: true } },
      { field: "Title", before: { text: "Größe" }, after: { none: true } },
      { field: "Type", before: { word: "type.SingleSelection" }, after: { none: true } },
      { field: "Sort", before: { text: "0" }, after: { none: true } },
      { field: "AllowFileAttachments", before: { word: "no" }, after: { none: true } },
      { field: "AllowMultipleAnswers", before: { word: "no" }, after: { none: true } },
      { field: "IsTestQuestion", before: { word: "no" }, after: { none: true } },
      { field: "DependenceType", before: { word: "rule.SHOW" }, after: { none: true } },
      { field: "SubQuestions", before: { text: "0" }, after: { none: true } },
    ]);
    const created = changesOf(
      null,
      JSON.stringify({ SurveyId: 1, CategoryId: 3, Type: "FreeText", Title: "Notiz", Unit: null, ImageSrc: null }),
      names,
      "question",
    );
    expect(created.changes.map((c) => c.field)).toEqual(["CategoryId", "Type", "Title"]);
  });

  it("names the switches of the start tab and a question's rule, so that nothing is left as 'more'", () => {
    const preliminary = changesOf(
      JSON.stringify({ IsPatientFormEnabled: 0 }),
      JSON.stringify({ IsPatientFormEnabled: 1 }),
      names,
      "survey",
    );
    expect(preliminary).toEqual({
      changes: [{ field: "IsPatientFormEnabled", before: { word: "no" }, after: { word: "yes" } }],
      more: false,
    });
    const retention = changesOf(
      JSON.stringify({ RetentionMonths: null }),
      JSON.stringify({ RetentionMonths: 18 }),
      names,
      "survey",
    );
    expect(retention.changes).toEqual([{ field: "RetentionMonths", before: { none: true }, after: { text: "18" } }]);
    const rule = changesOf(
      JSON.stringify({ Dependence: null }),
      JSON.stringify({ Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [51, 52] } }),
      names,
      "question",
    );
    expect(rule.changes).toEqual([
      { field: "Dependence", before: { none: true }, after: { word: "rule.HIDE", of: "bettlägerig, mobil" } },
    ]);
    const byPatient = changesOf(
      JSON.stringify({ PreliminaryByPatient: 0 }),
      JSON.stringify({ PreliminaryByPatient: 1 }),
      names,
      "survey",
    );
    expect(byPatient).toEqual({
      changes: [{ field: "PreliminaryByPatient", before: { word: "no" }, after: { word: "yes" } }],
      more: false,
    });
    // A hand-over's end says how it came (decision 058); its start changes no field.
    expect(changesOf(null, JSON.stringify({ EndedBy: "signIn" }), names, "handover")).toEqual({
      changes: [{ field: "EndedBy", before: { none: true }, after: { word: "endedBy.signIn" } }],
      more: false,
    });
    expect(changesOf(null, null, names, "handover")).toEqual({ changes: [], more: false });
    const exported = changesOf(null, JSON.stringify({ Filters: { PatientIds: [] }, Format: "csv" }), names, "survey");
    expect(exported).toEqual({
      changes: [{ field: "Format", before: { none: true }, after: { text: "csv" } }],
      more: false,
    });
  });

  it("names translated texts by their field and item, in words, never by their keys", () => {
    const { changes, more } = changesOf(
      JSON.stringify({ Name: "Türkçe", Texts: { "question:7": "", "question:7:Hint": "", Title: "" } }),
      JSON.stringify({
        Name: "Türkçe",
        Texts: {
          "question:7": "Boy",
          "question:7:Hint": "Ayakkabısız",
          "question:7:Unit": "cm",
          "question:99:Hint": "Silindi",
          "entry:51": "yatalak",
          Title: "Durum",
          IntroText: "<p>Hoş <strong>geldiniz</strong></p>",
        },
        Reviewed: 2,
      }),
      names,
      "survey_translation",
    );
    expect(more).toBe(false);
    // The language's name is the same before and after: no change.
    expect(changes).toEqual([
      {
        field: "Texts",
        before: { none: true },
        after: {
          translations: [
            { field: "question", name: "Körpergröße", text: "Boy" },
            { field: "hint", name: "Körpergröße", text: "Ayakkabısız" },
            { field: "unit", name: "Körpergröße", text: "cm" },
            { field: "hint", text: "Silindi" },
            { field: "entry", name: "bettlägerig", text: "yatalak" },
            { field: "title", text: "Durum" },
            { field: "intro", text: "Hoş geldiniz" },
          ],
        },
      },
      { field: "Reviewed", before: { none: true }, after: { text: "2" } },
    ]);
  });

  describe.each([
    ["de-DE", mergeTables(deCommon, deAuthoring)],
    ["en-US", mergeTables(enCommon, enAuthoring)],
  ])("in %s", (_locale, table: LocaleTable) => {
    const text = (key: string) =>
      key.split(".").reduce<unknown>((node, part) => (node as LocaleTable | undefined)?.[part], table);

    it("every field the trail names has its name", () => {
      const missing = [...Object.keys(FIELDS), "order"].filter((f) => typeof text(`audit.field.${f}`) !== "string");
      expect(missing).toEqual([]);
    });

    it("every word a change can show has its text", () => {
      const words = [
        ...["yes", "no", "present", "set", "weighting.0", "weighting.1", "weighting.2"].map((word) => ({ word })),
        ...HANDOVER_ENDED_BY.map((way) => ({ word: `endedBy.${way}` })),
        ...["rule.SHOW", "rule.HIDE"].flatMap((word) => [{ word }, { word, of: "a" }]),
        ...questionTypes.map((type) => ({ word: `type.${type}` })),
        ...surveyStatuses.map((status) => ({ word: `status.${status}` })),
      ];
      expect(words.map(wordKey).filter((key) => typeof text(key) !== "string")).toEqual([]);
    });

    it("every step of a case its history shows has its words, a hand-over's end by each way it ends", () => {
      const keys = [
        ...(["case.patientSubmit", "case.close", "case.autoClose", ...HANDOVER_EVENTS] as const).map((action) =>
          caseEventKey(action),
        ),
        ...HANDOVER_ENDED_BY.map((way) => caseEventKey("handover.end", way)),
      ];
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.filter((key) => typeof text(key) !== "string")).toEqual([]);
      // The trail names the hand-over's rows and what they are about.
      for (const key of ["audit.action.handover_start", "audit.action.handover_end", "audit.entity.handover"])
        expect(typeof text(key), key).toBe("string");
    });

    it("a patient link's steps in the survey's trail have their words, and what they are about", () => {
      for (const key of [
        "audit.action.link_create",
        "audit.action.link_renew",
        "audit.action.link_revoke",
        "audit.entity.patient_link",
      ])
        expect(typeof text(key), key).toBe("string");
    });

    it("every translated text's place has its words, with the item's name where it has one", () => {
      const fields: TranslatableField[] = ["title", "description", "intro", "outro", "scoreTitle"];
      const items: TranslatableField[] = ["category", "question", "hint", "unit", "answer", "attribute", "entry"];
      const places: Omit<TranslatedText, "text">[] = [
        ...[...fields, ...items].map((field) => ({ field })),
        ...items.map((field) => ({ field, name: "x" })),
      ];
      const keys = places.map(translatedPlaceKey);
      expect(keys.filter((key) => typeof text(key) !== "string")).toEqual([]);
      expect(items.map((field) => text(translatedPlaceKey({ field, name: "x" })))).toEqual(
        items.map(() => expect.stringContaining("{{name}}")),
      );
      expect(text("audit.translatedText")).toMatch(/\{\{place\}\}.*\{\{text\}\}/);
    });
  });
});
