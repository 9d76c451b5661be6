import { describe, expect, it } from "vitest";
import type { Contract } from "~/contracts/contract";
import type { Survey } from "~/domain/survey";
import { question } from "~/offline/test-support";
import { ApiError, type ApiClient } from "./api-client.server";
import { UPLOAD_BODY_LIMIT } from "./api/body.server";
import {
  preliminaryStored,
  readPageForm,
  savePageFromForm,
  storedAnswersComplete,
  uploadPageFiles,
} from "./fill-forms.server";

const survey = {
  Id: 7,
  Categories: [{ Id: 1, Questions: [question(11, "DateTime"), question(12, "FreeText")] }],
  PatientForm: [
    { Id: 1, Enabled: true },
    { Id: 2, Enabled: false },
  ],
} as unknown as Survey;

/** A stand-in for the API client: answers reads from `reads` (by path), records writes, refuses uploads as told. */
function fakeApi(reads: Record<string, unknown>, refuse?: (form: FormData) => ApiError | null) {
  const writes: { method: string; path: string; body?: unknown; form?: FormData; key?: string }[] = [];
  const api = {
    call: async (
      c: Contract,
      request: { body?: unknown } = {},
      opts: { form?: FormData; idempotencyKey?: string } = {},
    ) => {
      if (c.method === "get") return reads[c.path];
      writes.push({
        method: c.method.toUpperCase(),
        path: c.path,
        body: request.body,
        form: opts.form,
        key: opts.idempotencyKey,
      });
      const refusal = opts.form && refuse?.(opts.form);
      if (refusal) throw refusal;
    },
  } as unknown as ApiClient;
  return { api, writes };
}

function form(fields: [string, string | File][]) {
  const f = new FormData();
  for (const [k, v] of fields) f.append(k, v);
  return f;
}

describe("the fill page's form without JavaScript", () => {
  it("saves a date and time in the wire format, and gives back one that is none as typed", async () => {
    const { api, writes } = fakeApi({ "/question-responses": [] });
    const typed = form([
      ["questionIds", "11"],
      ["questionIds", "12"],
      ["q11", "31.02.2026 10:00"],
      ["q12", "gesehen"],
    ]);
    expect(await savePageFromForm(api, survey, "P1", typed)).toEqual({
      11: { typed: "31.02.2026 10:00", reason: "fill.dateTimeInvalid" },
    });
    expect(writes.map((w) => w.path)).toEqual(["/question-responses/free-text"]);
    const loose = form([
      ["questionIds", "11"],
      ["q11", "1.2.2027, 8:05"],
    ]);
    expect(await savePageFromForm(api, survey, "P1", loose)).toEqual({});
    expect(writes[1]).toMatchObject({
      path: "/question-responses/date-time",
      body: { QuestionId: 11, DateTimeResponse: "01.02.2027 08:05" },
    });
  });

  it("uploads the chosen files per question with the form's key, and gives back the refused ones", async () => {
    const refusal = new ApiError(406, {
      Type: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
      Error: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
      Results: [
        { FileName: "a.png", Uploaded: true },
        { FileName: "b.exe", Uploaded: false, Type: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED" },
      ],
    } as never);
    const { api, writes } = fakeApi({ "/patients": { State: "Open", PatientDataId: 5 } }, () => refusal);
    const sent = form([
      ["questionIds", "12"],
      ["formKey", "0123456789abcdef"],
      ["f12", new File(["x"], "a.png")],
      ["f12", new File(["MZ"], "b.exe")],
      // An empty file field posts a nameless file: nothing to upload.
      ["f11", new File([], "")],
    ]);
    expect(await uploadPageFiles(api, survey, "P1", sent)).toEqual({
      12: [{ name: "b.exe", reason: "uploadErrors.SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED" }],
    });
    expect(writes).toHaveLength(1);
    expect(writes[0].key).toBe("0123456789abcdef-upload-12");
    expect(writes[0].form?.getAll("files").map((f) => (f as File).name)).toEqual(["a.png", "b.exe"]);
    expect(await uploadPageFiles(api, survey, "P1", form([["questionIds", "12"]]))).toEqual({});
    expect(writes).toHaveLength(1);
  });

  it("frees a taken name from the form alone: two camera photos beside one listed go as (2) and (3)", async () => {
    const { api, writes } = fakeApi({ "/patients": { State: "Open", PatientDataId: 5 } });
    const fields: [string, string | File][] = [
      ["questionIds", "12"],
      ["formKey", "0123456789abcdef"],
      ["taken12", "image.jpg"],
      ["f12", new File(["1"], "image.jpg")],
      ["f12", new File(["2"], "image.jpg")],
    ];
    expect(await uploadPageFiles(api, survey, "P1", form(fields))).toEqual({});
    // Sent again, the same form sends the same names under the same key: the API keeps the files once.
    await uploadPageFiles(api, survey, "P1", form(fields));
    const names = writes.map((w) => w.form?.getAll("files").map((f) => (f as File).name));
    expect(names).toEqual([
      ["image (2).jpg", "image (3).jpg"],
      ["image (2).jpg", "image (3).jpg"],
    ]);
    expect(writes.map((w) => w.key)).toEqual(["0123456789abcdef-upload-12", "0123456789abcdef-upload-12"]);
  });

  it("reads a form with files within one upload's limit, and refuses more at once", async () => {
    const small = new Request("http://app.test/x", { method: "POST", body: form([["q12", "ja"]]) });
    expect((await readPageForm(small)).get("q12")).toBe("ja");
    const big = new Request("http://app.test/x", {
      method: "POST",
      body: form([["f12", new File([new Uint8Array(UPLOAD_BODY_LIMIT + 1)], "big.mp4")]]),
    });
    await expect(readPageForm(big)).rejects.toMatchObject({ type: "PAYLOAD_TOO_LARGE" });
  });

  it("counts the preliminary page complete when every question asked has an answer", async () => {
    expect(await preliminaryStored(fakeApi({ "/attribute-responses": [] }).api, survey, "P1")).toBe(false);
    const answered = fakeApi({
      "/attribute-responses": [{ PatientFormAttributeId: 1, PatientFormAnswerOptionId: 7 }],
    }).api;
    expect(await preliminaryStored(answered, survey, "P1")).toBe(true);
  });
});

describe("whether a patient's submit is asked about first (decision 067)", () => {
  // A third question shown only after the preliminary answer 7.
  const shownBy7 = {
    ...question(13, "FreeText"),
    Dependence: { Type: "SHOW" as const, PreliminaryAnswerOptions: [7] },
  };
  const withRule = {
    ...survey,
    Categories: [{ Id: 1, Questions: [question(11, "DateTime"), question(12, "FreeText"), shownBy7] }],
  } as unknown as Survey;
  const twoAnswered = [
    { QuestionId: 11, DateTimeResponse: "01.02.2027 08:05" },
    { QuestionId: 12, TextResponse: "gut" },
  ];

  it("is complete only when every question shown has a stored answer", async () => {
    expect(await storedAnswersComplete(fakeApi({ "/question-responses": [] }).api, survey, "P1", false)).toBe(false);
    const one = fakeApi({ "/question-responses": twoAnswered.slice(1) }).api;
    expect(await storedAnswersComplete(one, survey, "P1", false)).toBe(false);
    const both = fakeApi({ "/question-responses": twoAnswered }).api;
    expect(await storedAnswersComplete(both, survey, "P1", false)).toBe(true);
  });

  it("shows or hides questions by the preliminary answers only where the page asked with them", async () => {
    const shown = fakeApi({
      "/question-responses": twoAnswered,
      "/attribute-responses": [{ PatientFormAttributeId: 1, PatientFormAnswerOptionId: 7 }],
    }).api;
    // Answer 7 shows the third question, which has no answer yet.
    expect(await storedAnswersComplete(shown, withRule, "P1", true)).toBe(false);
    // A link's page without its own preliminary questions draws them with none: the third stays hidden, and
    // the preliminary answers (which that link may not read) are not asked for.
    const hidden = fakeApi({ "/question-responses": twoAnswered }).api;
    expect(await storedAnswersComplete(hidden, withRule, "P1", false)).toBe(true);
  });
});
