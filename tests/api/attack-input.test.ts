import fc from "fast-check";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi } from "../support/api";
import { dialects } from "../support/databases";
import { form, pdf, PNG, text } from "./fill-files";
import { buildWorld, type World } from "./endpoint-world";

/**
 * Hostile input aimed at particular weaknesses: bodies too large for their path, file names that climb out
 * of folders, script in text fields, spreadsheet formulas in answers, files whose content is not what their
 * name says, and names that would be unsafe inside an archive.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** A body stream that fails the test if anything reads it. */
function untouchable(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull() {
      throw new Error("the body was read");
    },
  });
}

const decoder = new TextDecoder();

describe.each(dialects)("hostile input on %s", (kind) => {
  let w: World;
  const request = (method: string, url: string, init: RequestInit & { who?: keyof World["tokens"] } = {}) =>
    Promise.resolve(
      w.api.ctx.api.request(`http://localhost:3000/api${url}`, {
        method,
        ...init,
        headers: { authorization: `Bearer ${w.tokens[init.who ?? "admin"]}`, ...(init.headers as object) },
      }),
    );
  const upload = (caseId: number, ...files: [string, Uint8Array][]) =>
    request("POST", `/file-attachments/upload?questionId=${w.dateTime}&patientDataId=${caseId}&surveyId=${w.heart}`, {
      body: form(...files),
    });

  beforeAll(async () => {
    w = await buildWorld(await startApi(kind, { idp }));
  });
  afterAll(async () => {
    await w?.api.close();
  });

  it("refuses a body declared over its path's limit with 413 before reading any of it", async () => {
    const big = (url: string, length: number, type: string) =>
      request("POST", url, {
        body: untouchable(),
        headers: { "content-type": type, "content-length": String(length) },
        duplex: "half",
      } as RequestInit);
    const json = await big("/categories", 1_000_001, "application/json");
    expect(json.status).toBe(413);
    expect(await json.json()).toEqual({ Type: "PAYLOAD_TOO_LARGE", Error: expect.any(String) });
    const files = await big(
      `/file-attachments/upload?questionId=${w.dateTime}&patientDataId=${w.openCase}&surveyId=${w.heart}`,
      30_000_000,
      "multipart/form-data; boundary=x",
    );
    expect(files.status).toBe(413);
  });

  it("stops reading a body without a declared length once it passes the limit", async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64_000;
        controller.enqueue(new Uint8Array(64_000).fill(0x20));
      },
    });
    const res = await request("POST", "/categories", {
      body: endless,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(1_200_000);
  });

  it("keeps only the last segment of an uploaded file's name and stores it under a random key", async () => {
    const caseId = await w.newCase();
    const res = await upload(caseId, ["../../../../etc/cron.d/evil.png", PNG], ["..\\..\\boot\\x.pdf", pdf()]);
    expect(res.status).toBe(200);
    const { Results } = await res.json();
    expect(Results.map((r: { FileName: string }) => r.FileName)).toEqual(["evil.png", "x.pdf"]);
    const rows = await w.db
      .selectFrom("file_attachments")
      .select("storage_key")
      .where("patient_data_id", "=", caseId)
      .execute();
    for (const r of rows) expect(r.storage_key).toMatch(/^[0-9a-f]{32}$/);
    // A name that climbs out of folders names nothing to delete.
    const gone = await request("DELETE", `/file-attachments/delete?questionId=${w.dateTime}&patientDataId=${caseId}`, {
      body: JSON.stringify({ fileName: "../../../../etc/cron.d/evil.png" }),
      headers: { "content-type": "application/json" },
    });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ Type: expect.any(String), Error: expect.any(String) });
    const listed = await (
      await request("GET", `/file-attachments?questionId=${w.dateTime}&patientDataId=${caseId}`)
    ).json();
    expect(listed).toHaveLength(2);
  });

  it("refuses files whose name or content is not an allowed kind, and serves polyglots inert", async () => {
    const caseId = await w.newCase();
    const html = text("<!doctype html><script>alert(document.cookie)</script>");
    for (const name of ["seite.html", "bild.svg", "bild.png.html", "tool.exe", "ohne-endung", ".htaccess"]) {
      const res = await upload(caseId, [name, PNG]);
      expect(res.status, name).toBe(406);
      expect((await res.json()).Type, name).toBe("SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED");
    }
    for (const name of ["bild.png", "foto.jpg", "scan.pdf", "brief.docx", "film.mp4"]) {
      const res = await upload(caseId, [name, html]);
      expect(res.status, name).toBe(406);
      expect((await res.json()).Type, name).toBe("SURVEY_ATTACHMENTS_CONTENT_MISMATCH");
    }
    // Content that also fits the name is accepted, and comes back only as a download of its own type.
    const polyglot = new Uint8Array([...text("<html><script>alert(1)</script>\n"), ...pdf()]);
    const accepted = await upload(caseId, ["befund.pdf", polyglot], ["notiz.txt", html]);
    expect(accepted.status).toBe(200);
    for (const r of (await accepted.json()).Results as { Id: number; FileName: string }[]) {
      const { Url } = await (
        await request("GET", `/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${r.Id}`)
      ).json();
      const file = await w.api.ctx.api.request(Url);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe(
        r.FileName.endsWith(".pdf") ? "application/pdf" : "text/plain; charset=utf-8",
      );
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      expect(file.headers.get("content-security-policy")).toContain("sandbox");
      expect(file.headers.get("content-disposition")).toMatch(/^attachment;/);
    }
  });

  it("makes every file name inside the attachments archive safe and unique", async () => {
    const patientId = w.patientId();
    const caseId = await w.newCase(patientId);
    const names = ["CON.png", "a:b.png", "x|y?.png", " lead.png", "ünï cödé.png"];
    const res = await upload(caseId, ...names.map((n): [string, Uint8Array] => [n, PNG]));
    expect(res.status).toBe(200);
    const ids = ((await res.json()).Results as { Id: number }[]).map((r) => r.Id);
    await w.admin("POST", `/patients/close?patientId=${patientId}&surveyId=${w.heart}`);
    const zip = await request("POST", "/file-attachments/get-archived", {
      body: JSON.stringify({ QuestionId: w.dateTime, SurveyFileAttachmentIds: ids }),
      headers: { "content-type": "application/json" },
    });
    expect(zip.status).toBe(200);
    const entries = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer())));
    expect(entries).toHaveLength(names.length);
    expect(new Set(entries.map((e) => e.toLowerCase())).size).toBe(names.length);
    for (const entry of entries) {
      expect(entry).toMatch(new RegExp(`^${patientId}/[^/\\\\]+$`));
      const file = entry.split("/")[1];
      // eslint-disable-next-line no-control-regex
      expect(file, entry).not.toMatch(/[\u0000-\u001f<>:"|?*]|\.\.|^[ .]|[ .]$|^(con|prn|aux|nul)(\.|$)/i);
    }
  });

  it("sanitises rich text with an allow-list and keeps plain text as text", async () => {
    const attacks = [
      "<script>alert(1)</script><p>ok</p>",
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="  JaVaScRiPt:alert(1)">x</a>',
      '<iframe src="https://evil.example"></iframe>',
      '<svg onload="alert(1)"><circle/></svg>',
      '<p style="background:url(javascript:alert(1))">x</p>',
      '<span style="color:red;behavior:url(x.htc)">x</span>',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style>",
      '<p onclick="alert(1)">x</p><form action="https://evil.example"><input></form>',
    ];
    const title = '<img src=x onerror="alert(1)">';
    for (const html of attacks) {
      await w.admin("PUT", `/surveys/${w.draft}`, { IntroText: html, OutroText: html, Description: title });
      const survey = await w.admin("GET", `/surveys/${w.draft}`);
      for (const out of [survey.IntroText, survey.OutroText] as string[]) {
        expect(out, html).not.toMatch(/<(script|iframe|svg|math|img|form|input|style|object|embed)\b/i);
        expect(out, html).not.toMatch(/\son\w+\s*=|javascript:|url\(|behavior/i);
      }
      expect(survey.Description).toBe(title);
    }
  });

  it("refuses the NUL character in any text, path or query with 400 on either database", async () => {
    const json = { "content-type": "application/json" };
    const refusals = await Promise.all([
      request("PUT", `/surveys/${w.draft}`, { body: JSON.stringify({ Description: "a\u0000b" }), headers: json }),
      request("PUT", `/surveys/${w.draft}`, { body: JSON.stringify({ IntroText: "<p>\u0000</p>" }), headers: json }),
      request("POST", "/categories", { body: JSON.stringify({ SurveyId: w.draft, Title: "\u0000" }), headers: json }),
      request("POST", "/question-responses/free-text", {
        body: JSON.stringify({
          SurveyId: w.heart,
          PatientId: w.openPatient,
          QuestionId: w.freeText,
          TextResponse: "x\u0000",
        }),
        headers: json,
      }),
      request("GET", `/surveys?filterString=${encodeURIComponent("Herz\u0000")}`),
      request("GET", `/patients/autocomplete?patientId=%00&surveyId=${w.heart}`),
    ]);
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ Type: "VALIDATION_ERROR", Error: expect.stringContaining("NUL") });
    }
    const survey = await w.admin("GET", `/surveys/${w.draft}`);
    expect(survey.Description).not.toContain("\u0000");
  });

  it("neutralises spreadsheet formulas in every exported cell", async () => {
    const formulas = ['=HYPERLINK("https://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", '";=1;"'];
    for (const answer of formulas) {
      const patientId = w.patientId();
      await w.newCase(patientId);
      const base = { SurveyId: w.heart, PatientId: patientId };
      await w.admin("POST", "/question-responses/free-text", { ...base, QuestionId: w.freeText, TextResponse: answer });
      await w.admin("POST", `/patients/close?patientId=${patientId}&surveyId=${w.heart}`);
    }
    const res = await request("POST", `/statistics/${w.heart}/csv`, {
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    for (const [name, bytes] of Object.entries(files)) {
      const csv = decoder.decode(bytes).replace(/^\uFEFF/, "");
      const cells = parseCsv(csv, csv.split("\r\n")[0].includes(";") ? ";" : ",");
      for (const cell of cells) expect(cell, `${name}: ${JSON.stringify(cell)}`).not.toMatch(/^[=+\-@\t\r]/);
      if (name === "responses.csv") for (const f of formulas.slice(0, 6)) expect(cells).toContain(`'${f}`);
    }
  });
});

/** The cells of a CSV text (RFC 4180 quoting). */
function parseCsv(csv: string, sep: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i < csv.length) {
    let cell = "";
    if (csv[i] === '"') {
      i++;
      for (;;) {
        if (csv[i] === '"' && csv[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (csv[i] === '"') break;
        else cell += csv[i++];
      }
      i++;
    } else while (i < csv.length && csv[i] !== sep && csv[i] !== "\r") cell += csv[i++];
    cells.push(cell);
    if (csv[i] === "\r") i += 2;
    else i++;
  }
  return cells;
}

describe("CSV cells, for any text", () => {
  it("never start a formula once written", async () => {
    const { csvField } = await import("~/domain/statistics");
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom<";" | ",">(";", ","), (value, sep) => {
        const field = csvField(value, sep);
        const cell = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 2000 },
    );
  });
});
