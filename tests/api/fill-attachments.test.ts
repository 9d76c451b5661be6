import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { form, pdf, PNG, text } from "./fill-files";
import { json, questionId, restrictParticipants, startCase, useFillWorld, type Who } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

interface UploadAnswer {
  Type?: string;
  Error?: string;
  FileName?: string;
  Results: { FileName: string; Uploaded: boolean; Id?: number; Type?: string }[];
}

describe.each(dialects)("file attachments API on %s", (kind) => {
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => restrictParticipants(w.db, w.b.heart, "Studienzentrum"),
  );
  let question: number;
  let plain: number;
  let caseId: number;

  beforeAll(async () => {
    const w = world();
    question = await questionId(w.db, w.a.heart, "Zeitpunkt der Messung");
    plain = await questionId(w.db, w.a.heart, "Körpergewicht");
    caseId = await startCase(w, w.a.heart, "FILES_1");
  });

  const upload = (body: FormData, opts: { who?: Who; q?: number; c?: number; s?: number } = {}) => {
    const w = world();
    const query = `questionId=${opts.q ?? question}&patientDataId=${opts.c ?? caseId}&ssiUserDataId=1&userId=u1&surveyId=${opts.s ?? w.a.heart}`;
    return w.raw(opts.who ?? "user", "POST", `/file-attachments/upload?${query}`, { body });
  };
  const list = async (who: Who = "user", c = caseId) =>
    json<{ Id: number; FileName: string; FileExtension: string }[]>(
      await world().call(who, "GET", `/file-attachments?questionId=${question}&patientDataId=${c}`),
    );
  const refusal = async (res: Response) => {
    expect(res.status).toBe(406);
    return json<UploadAnswer>(res);
  };

  it("stores a real PNG under a random key and lists and counts it", async () => {
    const w = world();
    const res = await upload(form(["röntgen.png", PNG]));
    expect(res.status).toBe(200);
    const body = await json<UploadAnswer>(res);
    expect(body.Results).toEqual([
      { FileName: "röntgen.png", Uploaded: true, Id: expect.any(Number), FileExtension: "png" },
    ]);
    expect(await list()).toEqual([{ Id: body.Results[0].Id, FileName: "röntgen.png", FileExtension: "png" }]);
    const count = await w.call("user", "GET", `/file-attachments/count?patientDataId=${caseId}`);
    expect(await json(count)).toEqual([{ QuestionId: question, NumberOfFileAttachment: 1 }]);
    const row = await w.db
      .selectFrom("file_attachments")
      .selectAll()
      .where("id", "=", body.Results[0].Id!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content_type: "image/png", size: PNG.length, uploaded_by_user_id: expect.any(Number) });
    expect(row.storage_key).toMatch(/^[0-9a-f]{32}$/);
    const stored = await fs.readFile(
      path.join(w.api.ctx.env.attachmentsDir, row.storage_key.slice(0, 2), row.storage_key),
    );
    expect(stored.equals(PNG)).toBe(true);
  });

  it("takes several files in one request, a PDF among them", async () => {
    const res = await upload(form(["befund.pdf", pdf()], ["notiz.txt", text("Kontrolle in 2 Wochen")]));
    expect(res.status).toBe(200);
    expect((await json<UploadAnswer>(res)).Results.map((r) => r.Uploaded)).toEqual([true, true]);
    expect((await list()).map((f) => f.FileName)).toEqual(["röntgen.png", "befund.pdf", "notiz.txt"]);
  });

  it("refuses a text file named .png, an .exe and a file of 4,000,001 bytes", async () => {
    const fake = await refusal(await upload(form(["fake.png", text("kein Bild")])));
    expect(fake).toMatchObject({
      Type: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
      Error: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
      FileName: "fake.png",
    });
    const exe = await refusal(await upload(form(["setup.exe", Buffer.from("MZ\x90\x00")])));
    expect(exe.Type).toBe("SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED");
    const big = await refusal(await upload(form(["gross.txt", Buffer.alloc(4_000_001, 0x61)])));
    expect(big).toMatchObject({ Type: "SURVEY_ATTACHMENTS_TOO_LARGE", FileName: "gross.txt" });
    expect(await list()).toHaveLength(3);
  });

  it("refuses a name the question holds already, whatever its case", async () => {
    for (const name of ["röntgen.png", "RÖNTGEN.PNG"]) {
      const dup = await refusal(await upload(form([name, PNG])));
      expect(dup).toMatchObject({ Type: "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME", FileName: name });
    }
  });

  it("takes five files per question and refuses the sixth; a mixed request stores the good ones", async () => {
    const mixed = await refusal(
      await upload(form(["vier.txt", text("4")], ["doppelt.txt", text("x")], ["doppelt.txt", text("y")])),
    );
    expect(mixed.Results.map((r) => [r.FileName, r.Uploaded, r.Type])).toEqual([
      ["vier.txt", true, undefined],
      ["doppelt.txt", true, undefined],
      ["doppelt.txt", false, "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME"],
    ]);
    expect(await list()).toHaveLength(5);
    const sixth = await refusal(await upload(form(["sechs.txt", text("6")])));
    expect(sixth).toMatchObject({ Type: "SURVEY_ATTACHMENTS_TOO_MANY", FileName: "sechs.txt" });
    expect(await list()).toHaveLength(5);
  });

  it("takes files above the JSON body limit, and refuses questions without attachments", async () => {
    const w = world();
    const other = await startCase(w, w.a.heart, "FILES_2");
    const large = Buffer.alloc(3_900_000, 0x62);
    const res = await upload(form(["gross.txt", large]), { c: other });
    expect(res.status).toBe(200);
    const none = await refusal(await upload(form(["bild.png", PNG]), { c: other, q: plain }));
    expect(none.Type).toBe("SURVEY_ATTACHMENTS_NOT_ALLOWED");
  });

  it("refuses bad requests: not multipart (415), no files (400), too large a body (413), foreign question (400)", async () => {
    const w = world();
    const query = `questionId=${question}&patientDataId=${caseId}&surveyId=${w.a.heart}`;
    const notForm = await w.raw("user", "POST", `/file-attachments/upload?${query}`, {
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(notForm.status).toBe(415);
    expect((await upload(new FormData())).status).toBe(400);
    const huge = await upload(form(["a.txt", Buffer.alloc(21_000_001, 0x61)]));
    expect(huge.status).toBe(413);
    const postop = await questionId(w.db, w.a.postop, "Pain at rest (0–10)");
    expect((await upload(form(["x.txt", text("x")]), { q: postop })).status).toBe(400);
    expect((await w.raw("user", "POST", `/file-attachments/upload?questionId=${question}`)).status).toBe(400);
  });

  it("refuses closed and unknown cases, and people who may not take part", async () => {
    const w = world();
    const closedId = await startCase(w, w.a.heart, "FILES_CLOSED");
    await w.call("user", "POST", `/patients/close?patientId=FILES_CLOSED&surveyId=${w.a.heart}`);
    const closed = await upload(form(["x.txt", text("x")]), { c: closedId });
    expect(closed.status).toBe(409);
    expect((await json<{ Type: string }>(closed)).Type).toBe("SURVEY_ALREADY_CLOSED");
    expect((await upload(form(["x.txt", text("x")]), { c: 999_999 })).status).toBe(404);
    expect((await upload(form(["x.txt", text("x")]), { who: "nobody" })).status).toBe(401);
    expect((await upload(form(["x.txt", text("x")]), { who: "outsider" })).status).toBe(403);

    const restrictedQuestion = await questionId(w.db, w.b.heart, "Zeitpunkt der Messung");
    const restrictedCase = await startCase(w, w.b.heart, "FILES_TEAM", "admin");
    const opts = { q: restrictedQuestion, c: restrictedCase, s: w.b.heart };
    expect((await upload(form(["x.txt", text("x")]), { ...opts, who: "admin" })).status).toBe(200);
    expect((await upload(form(["y.txt", text("y")]), { ...opts, who: "user" })).status).toBe(404);
    const listed = await w.call(
      "user",
      "GET",
      `/file-attachments?questionId=${restrictedQuestion}&patientDataId=${restrictedCase}`,
    );
    expect(listed.status).toBe(404);
    expect((await w.call("user", "GET", `/file-attachments/count?patientDataId=${restrictedCase}`)).status).toBe(404);
    expect((await w.call("outsider", "GET", `/file-attachments/count?patientDataId=${caseId}`)).status).toBe(403);
  });

  it("removes a file by name, its blob with it", async () => {
    const w = world();
    const target = (await list()).find((f) => f.FileName === "vier.txt")!;
    const row = await w.db
      .selectFrom("file_attachments")
      .select("storage_key")
      .where("id", "=", target.Id)
      .executeTakeFirstOrThrow();
    const del = (who: Who, fileName: unknown) =>
      w.call(
        who,
        "DELETE",
        `/file-attachments/delete?questionId=${question}&patientDataId=${caseId}&ssiUserDataId=1&userId=u1`,
        {
          fileName,
        },
      );
    expect((await del("outsider", "vier.txt")).status).toBe(403);
    expect((await del("user", "vier.txt")).status).toBe(204);
    expect((await list()).map((f) => f.FileName)).not.toContain("vier.txt");
    const blob = path.join(w.api.ctx.env.attachmentsDir, row.storage_key.slice(0, 2), row.storage_key);
    await expect(fs.stat(blob)).rejects.toThrow();
    expect((await del("user", "vier.txt")).status).toBe(404);
    expect((await del("user", 5)).status).toBe(400);
    // The freed place takes a new file.
    expect((await upload(form(["fuenf.txt", text("5")]))).status).toBe(200);
  });
});
