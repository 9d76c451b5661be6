import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { unzipSync } from "fflate";
import { readBlob } from "~/server/storage/attachments.server";
import { moveAttachments } from "~/server/storage/move.server";
import { attachmentStoreFor } from "~/server/storage/stores.server";
import { ORPHAN_GRACE_MS, sweepOrphans } from "~/server/storage/sweep.server";
import { storeSetups, useStoreEnv } from "../support/stores";
import { freeFileName } from "~/domain/uploads";
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

describe.each(storeSetups)("file attachments API, $name", (setup) => {
  const stores = useStoreEnv(setup);
  const world = useFillWorld(
    setup.db,
    () => idp,
    async (w) => restrictParticipants(w.db, w.b.heart, "Studienzentrum"),
    stores.env,
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
    expect(w.api.ctx.attachments.kind).toBe(setup.store);
    const stored = await readBlob(w.api.ctx.attachments, row.storage_key);
    expect(stored!.equals(PNG)).toBe(true);
  });

  it("takes several files in one request, a PDF among them", async () => {
    const res = await upload(form(["befund.pdf", pdf()], ["notiz.txt", text("Kontrolle in 2 Wochen")]));
    expect(res.status).toBe(200);
    expect((await json<UploadAnswer>(res)).Results.map((r) => r.Uploaded)).toEqual([true, true]);
    expect((await list()).map((f) => f.FileName)).toEqual(["röntgen.png", "befund.pdf", "notiz.txt"]);
  });

  it("refuses a text file named .png, an .exe and a file of 4,000,001 bytes", async () => {
    const fake = await refusal(await upload(form(["fake.png", text("kein Bild")])));
    // Its extension is allowed; its content is not a PNG: said as such, not as a forbidden type.
    expect(fake).toMatchObject({
      Type: "SURVEY_ATTACHMENTS_CONTENT_MISMATCH",
      Error: "SURVEY_ATTACHMENTS_CONTENT_MISMATCH",
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

  it("keeps a camera's photos, all named image.jpg, once the device frees each taken name", async () => {
    const w = world();
    const photos = await startCase(w, w.a.heart, "FILES_PHOTOS");
    const jpeg = (n: number) => Buffer.from([0xff, 0xd8, 0xff, 0xe0, n]);
    const names = async () =>
      (
        await json<{ FileName: string }[]>(
          await w.call("user", "GET", `/file-attachments?questionId=${question}&patientDataId=${photos}`),
        )
      ).map((f) => f.FileName);
    for (const n of [1, 2, 3]) {
      const name = freeFileName("image.jpg", await names());
      const res = await upload(form([name, jpeg(n)]), { c: photos });
      expect(res.status).toBe(200);
    }
    expect(await names()).toEqual(["image.jpg", "image (2).jpg", "image (3).jpg"]);
    // The server itself frees nothing: the taken name, sent again, meets its own file (a request sent twice).
    const again = await refusal(await upload(form(["image (2).jpg", jpeg(2)]), { c: photos }));
    expect(again).toMatchObject({ Type: "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME", FileName: "image (2).jpg" });
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
    expect(await w.api.ctx.attachments.open(row.storage_key)).toBeNull();
    expect((await del("user", "vier.txt")).status).toBe(404);
    expect((await del("user", 5)).status).toBe(400);
    // The freed place takes a new file.
    expect((await upload(form(["fuenf.txt", text("5")]))).status).toBe(200);
  });

  /** Each attachment row of the case's question with the bytes the store holds for it. */
  const storedFiles = async (store = world().api.ctx.attachments) => {
    const rows = await world()
      .db.selectFrom("file_attachments")
      .select(["id", "file_name", "storage_key"])
      .where("patient_data_id", "=", caseId)
      .orderBy("id")
      .execute();
    return Promise.all(rows.map(async (r) => ({ ...r, bytes: await readBlob(store, r.storage_key) })));
  };

  it("zips a question's files for analysts with each file's bytes, read from the store", async () => {
    const w = world();
    const files = await storedFiles();
    expect(files.length).toBeGreaterThanOrEqual(4);
    const res = await w.call("editor", "POST", "/file-attachments/get-archived", {
      QuestionId: question,
      SurveyFileAttachmentIds: files.map((f) => f.id),
    });
    expect(res.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(zip).sort()).toEqual(files.map((f) => `FILES_1/${f.file_name}`).sort());
    for (const f of files) expect(Buffer.from(zip[`FILES_1/${f.file_name}`]).equals(f.bytes!)).toBe(true);
  });

  it("moves every file to another store, each verified by checksum; run again, it copies nothing", async () => {
    const w = world();
    const other = setup.store === "database" ? "file" : "database";
    const target = attachmentStoreFor({ ...w.api.ctx.env, attachmentStore: other }, w.db);
    const rows = await w.db.selectFrom("file_attachments").select("id").execute();
    const first = await moveAttachments(w.db, w.api.ctx.attachments, target);
    expect(first).toEqual({ rows: rows.length, copied: rows.length, present: 0, missing: [], mismatched: [] });
    for (const f of await storedFiles()) expect((await readBlob(target, f.storage_key))!.equals(f.bytes!)).toBe(true);
    const again = await moveAttachments(w.db, w.api.ctx.attachments, target);
    expect(again).toMatchObject({ copied: 0, present: rows.length, missing: [] });

    // A row whose bytes the source lost is named, not skipped in silence.
    const lost = (await storedFiles()).at(-1)!;
    await w.api.ctx.attachments.delete(lost.storage_key);
    await target.delete(lost.storage_key);
    const third = await moveAttachments(w.db, w.api.ctx.attachments, target);
    expect(third.missing).toEqual([lost.id]);
    await target.close();
  });

  it("sweeps blobs that no row names once they are an hour old, and nothing else", async () => {
    const w = world();
    const store = w.api.ctx.attachments;
    const orphan = await store.put(text("verwaist"));
    expect(await sweepOrphans(w.db, store)).toBe(0);
    expect(await store.open(orphan)).not.toBeNull();
    const before = await storedFiles();
    const removed = await sweepOrphans(w.db, store, { now: new Date(Date.now() + 2 * ORPHAN_GRACE_MS) });
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await store.open(orphan)).toBeNull();
    const after = await storedFiles();
    expect(after.map((f) => [f.id, f.bytes?.length])).toEqual(before.map((f) => [f.id, f.bytes?.length]));
  });

  if (setup.store === "s3") {
    it("while the object store is down: uploads and downloads answer 503, readiness is false; then it recovers", async () => {
      const w = world();
      const s3 = stores.s3()!;
      const c = await startCase(w, w.a.heart, "FILES_DOWN");
      const before = await json<UploadAnswer>(await upload(form(["vorher.txt", text("up")]), { c }));
      const link = await json<{ Url: string }>(
        await w.call(
          "user",
          "GET",
          `/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${before.Results[0].Id}`,
        ),
      );
      const download = () => w.call("nobody", "GET", link.Url.replace("http://localhost:3000/api", ""));
      await s3.stop();
      try {
        const res = await upload(form(["waehrend.txt", text("down")]), { c });
        expect(res.status).toBe(503);
        expect(await json(res)).toMatchObject({ Type: "SERVICE_UNAVAILABLE" });
        const ready = await w.call("nobody", "GET", "/health/ready");
        expect(ready.status).toBe(503);
        expect(await json(ready)).toMatchObject({ Status: "NotReady", Database: true, AttachmentStore: false });
        expect((await list("user", c)).map((f) => f.FileName)).toEqual(["vorher.txt"]);
        const failed = await download();
        expect(failed.status).toBe(503);
        expect(await json(failed)).toMatchObject({ Type: "SERVICE_UNAVAILABLE" });
      } finally {
        await s3.start();
      }
      expect((await w.call("nobody", "GET", "/health/ready")).status).toBe(200);
      expect((await upload(form(["danach.txt", text("up")]), { c })).status).toBe(200);
      expect(await (await download()).text()).toBe("up");
    });
  }
});
