import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import {
  ATTACHMENT_LINK_TTL_MS,
  attachmentLinkSecret,
  contentDisposition,
  signAttachmentToken,
  verifyAttachmentToken,
} from "~/server/services/fill/attachment-links.server";
import { storeSetups, useStoreEnv } from "../support/stores";
import { form, pdf, PNG } from "./fill-files";
import { json, questionId, startCase, useFillWorld, type Who } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe("signed attachment tokens", () => {
  const secret = "s3cret-for-tests-only-0123456789";
  const now = new Date("2026-05-10T12:00:00.000Z");

  it("grant one attachment for 10 minutes", () => {
    const token = signAttachmentToken(secret, 42, now);
    expect(verifyAttachmentToken(secret, token, now)).toBe(42);
    expect(verifyAttachmentToken(secret, token, new Date(now.getTime() + ATTACHMENT_LINK_TTL_MS - 1000))).toBe(42);
    expect(verifyAttachmentToken(secret, token, new Date(now.getTime() + ATTACHMENT_LINK_TTL_MS))).toBeNull();
  });

  it("refuse forged, altered and malformed tokens", () => {
    const token = signAttachmentToken(secret, 42, now);
    const [, expires, sig] = token.split(".");
    expect(verifyAttachmentToken("another-secret-entirely-000000", token, now)).toBeNull();
    expect(verifyAttachmentToken(secret, `43.${expires}.${sig}`, now)).toBeNull();
    expect(verifyAttachmentToken(secret, `42.${Number(expires) + 3600}.${sig}`, now)).toBeNull();
    const flipped = sig[0] === "A" ? `B${sig.slice(1)}` : `A${sig.slice(1)}`;
    expect(verifyAttachmentToken(secret, `42.${expires}.${flipped}`, now)).toBeNull();
    for (const bad of ["", "42", "42.1.x", `${token}.x`, "a.b.c"])
      expect(verifyAttachmentToken(secret, bad, now)).toBeNull();
  });

  it("make a safe Content-Disposition from any file name", () => {
    expect(contentDisposition("röntgen bild.png")).toBe(
      `attachment; filename="r_ntgen bild.png"; filename*=UTF-8''r%C3%B6ntgen%20bild.png`,
    );
    expect(contentDisposition('a";b\\c\r\n.txt')).toBe(
      `attachment; filename="a__b_c__.txt"; filename*=UTF-8''a%22%3Bb%5Cc%0D%0A.txt`,
    );
  });
});

describe.each(storeSetups)("attachment download links, $name", (setup) => {
  const stores = useStoreEnv(setup);
  const world = useFillWorld(setup.db, () => idp, undefined, stores.env);
  let pngId: number;
  let pdfId: number;
  let caseId: number;
  let question: number;

  beforeAll(async () => {
    const w = world();
    question = await questionId(w.db, w.a.heart, "Zeitpunkt der Messung");
    caseId = await startCase(w, w.a.heart, "LINK_1");
    const res = await w.raw(
      "user",
      "POST",
      `/file-attachments/upload?questionId=${question}&patientDataId=${caseId}&surveyId=${w.a.heart}`,
      {
        body: form(["röntgen bild.png", PNG], ["befund.pdf", pdf()]),
      },
    );
    const results = (await json<{ Results: { Id: number }[] }>(res)).Results;
    [pngId, pdfId] = results.map((r) => r.Id);
  });

  const linkFor = async (who: Who, id: number) => {
    const res = await world().call(who, "GET", `/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${id}`);
    return { status: res.status, url: res.status === 200 ? (await json<{ Url: string }>(res)).Url : "" };
  };
  const open = (url: string) => world().call("nobody", "GET", url.replace("http://localhost:3000/api", ""));

  it("a participant gets a link that serves the file as a download with its stored type", async () => {
    const { status, url } = await linkFor("user", pngId);
    expect(status).toBe(200);
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/file-attachments\/download\?token=/);
    const res = await open(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="r_ntgen bild.png"; filename*=UTF-8''r%C3%B6ntgen%20bild.png`,
    );
    const doc = await open((await linkFor("user", pdfId)).url);
    expect(doc.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await doc.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("analysts get links too; outsiders, strangers and unknown ids do not", async () => {
    expect((await linkFor("approver", pngId)).status).toBe(200);
    expect((await linkFor("editor", pngId)).status).toBe(200);
    expect((await linkFor("outsider", pngId)).status).toBe(403);
    expect((await linkFor("nobody", pngId)).status).toBe(401);
    expect((await linkFor("user", 999_999)).status).toBe(404);
  });

  it("an altered, foreign or expired link is refused (403)", async () => {
    const w = world();
    const { url } = await linkFor("user", pngId);
    const token = decodeURIComponent(url.split("token=")[1]);
    const [, expires, sig] = token.split(".");
    const tampered = [
      `${pdfId}.${expires}.${sig}`,
      `${pngId}.${Number(expires) + 600}.${sig}`,
      `${pngId}.${expires}.${"A".repeat(43)}`,
    ];
    for (const t of tampered) {
      const res = await open(`/file-attachments/download?token=${encodeURIComponent(t)}`);
      expect(res.status).toBe(403);
      expect((await json<{ Type: string }>(res)).Type).toBe("FORBIDDEN");
    }
    const secret = attachmentLinkSecret(w.api.ctx.env.DATA_DIR);
    const expired = signAttachmentToken(secret, pngId, new Date(Date.now() - ATTACHMENT_LINK_TTL_MS - 1000));
    expect((await open(`/file-attachments/download?token=${encodeURIComponent(expired)}`)).status).toBe(403);
    const fresh = signAttachmentToken(secret, pngId);
    expect((await open(`/file-attachments/download?token=${encodeURIComponent(fresh)}`)).status).toBe(200);
    expect((await open(`/file-attachments/download`)).status).toBe(400);
  });

  it("a link to a file that was removed answers 404", async () => {
    const w = world();
    const { url } = await linkFor("user", pdfId);
    const del = await w.call(
      "user",
      "DELETE",
      `/file-attachments/delete?questionId=${question}&patientDataId=${caseId}`,
      {
        fileName: "befund.pdf",
      },
    );
    expect(del.status).toBe(204);
    expect((await open(url)).status).toBe(404);
  });
});
