// Attachments through each store: the production server in its own process, signed in; uploads and downloads
// of a 4,000,000-byte file (time and the server's peak memory while it runs), and the archive zip of 100
// attachments. Stores: file and database on SQLite, database and s3 (an S3-compatible server on loopback)
// on PostgreSQL when it is reachable (otherwise s3 over SQLite).
// Usage: npx tsx bench/attachments.ts   (after npm run build)
import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { startTestS3, type TestS3 } from "../tests/support/s3";
import { startBenchServer, type BenchServer } from "./server";

const FOUR_MB = 4_000_000;
const BUDGET = { uploadMs: 1500, downloadMs: 1000, peakMb: 64, zipMs: 5000 };
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The process's resident memory now, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/**
 * Runs fn while sampling the server's memory: its time and how far the resident memory rose above what it
 * was just before (the whole process, with the provider's worker and the reader threads, sits near 270 MB).
 */
async function measured<T>(pid: number, fn: () => Promise<T>) {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 5);
  const start = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - start, peakMb: Math.max(peak, rssMb(pid)) - before };
  } finally {
    clearInterval(timer);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function postgresUrl(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `bench_attachments_${crypto.randomBytes(4).toString("hex")}`;
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

async function benchStore(name: string, server: BenchServer) {
  const headers = { cookie: server.cookie, origin: server.app };
  const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.app}/api${p}`, {
      method,
      headers: { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const surveys = await call<{ Data: { Id: number; Title: string }[] }>("GET", "/surveys");
  const survey = surveys.Data.find((s) => s.Title.startsWith("Herzinsuffizienz"))!;
  const tree = await call<{ Categories: { Questions: { Id: number; Title: string }[] }[] }>(
    "GET",
    `/surveys/${survey.Id}`,
  );
  const question = tree.Categories.flatMap((c) => c.Questions).find((q) => q.Title === "Zeitpunkt der Messung")!;
  let cases = 0;
  const newCase = async () =>
    (
      await call<{ PatientDataId: number }>(
        "POST",
        `/patients/add?patientId=BENCH_${name.replace(/\W/g, "_")}_${++cases}&surveyId=${survey.Id}`,
      )
    ).PatientDataId;
  const upload = async (caseId: number, files: [string, Uint8Array][]) => {
    const form = new FormData();
    for (const [file, bytes] of files) form.append("files", new Blob([bytes as Uint8Array<ArrayBuffer>]), file);
    const res = await fetch(
      `${server.app}/api/file-attachments/upload?questionId=${question.Id}&patientDataId=${caseId}&surveyId=${survey.Id}`,
      { method: "POST", headers, body: form },
    );
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { Results: { Id: number }[] }).Results.map((r) => r.Id);
  };
  const big = Buffer.alloc(FOUR_MB, "Befund des Langzeit-EKG, Seite 1 von 1. ");

  const uploads: { ms: number; peakMb: number }[] = [];
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) {
    const caseId = await newCase();
    const m = await measured(server.process.pid!, () => upload(caseId, [[`gross-${i}.txt`, big]]));
    uploads.push(m);
    ids.push(...m.value);
  }
  const downloads: { ms: number; peakMb: number }[] = [];
  for (const id of ids) {
    const { Url } = await call<{ Url: string }>(
      "GET",
      `/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${id}`,
    );
    const m = await measured(server.process.pid!, async () => {
      const res = await fetch(Url.replace(/^https?:\/\/[^/]+/, server.app));
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || bytes.length !== FOUR_MB) throw new Error(`download: ${res.status} ${bytes.length}`);
    });
    downloads.push(m);
  }

  // 100 attachments of 40 KB on 20 cases, zipped in one request.
  const small = crypto.randomBytes(20_000).toString("hex");
  const zipIds: number[] = [];
  for (let c = 0; c < 20; c++) {
    const caseId = await newCase();
    zipIds.push(
      ...(await upload(
        caseId,
        Array.from({ length: 5 }, (_, i) => [`datei-${i}.txt`, Buffer.from(small)] as [string, Uint8Array]),
      )),
    );
  }
  const zip = await measured(server.process.pid!, async () => {
    const res = await fetch(`${server.app}/api/file-attachments/get-archived`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ QuestionId: question.Id, SurveyFileAttachmentIds: zipIds }),
    });
    const bytes = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`zip: ${res.status}`);
    return bytes.byteLength;
  });

  return {
    store: name,
    uploadMs: median(uploads.map((u) => u.ms)),
    uploadPeakMb: Math.max(...uploads.map((u) => u.peakMb)),
    downloadMs: median(downloads.map((d) => d.ms)),
    downloadPeakMb: Math.max(...downloads.map((d) => d.peakMb)),
    zipMs: zip.ms,
    zipPeakMb: zip.peakMb,
    zipBytes: zip.value,
  };
}

const s3: TestS3 = await startTestS3("bench");
const s3Env = {
  ATTACHMENT_STORE: "s3",
  S3_BUCKET: s3.settings.bucket,
  S3_ENDPOINT: s3.settings.endpoint!,
  S3_FORCE_PATH_STYLE: "true",
  S3_ACCESS_KEY_ID: s3.settings.credentials!.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.settings.credentials!.secretAccessKey,
};
const postgres = [await postgresUrl(), await postgresUrl()];
const setups: [string, Record<string, string>][] = [
  ["file (SQLite)", { ATTACHMENT_STORE: "file" }],
  ["database (SQLite)", { ATTACHMENT_STORE: "database" }],
  ...(postgres[0] && postgres[1]
    ? ([
        ["database (PostgreSQL)", { DATABASE_URL: postgres[0].url }],
        ["s3 (PostgreSQL)", { DATABASE_URL: postgres[1].url, ...s3Env }],
      ] as [string, Record<string, string>][])
    : ([["s3 (SQLite)", s3Env]] as [string, Record<string, string>][])),
];

const rows = [];
let over = false;
try {
  for (const [name, env] of setups) {
    const server = await startBenchServer({ username: "admin", password: "admin123" }, env);
    try {
      const r = await benchStore(name, server);
      const verdict = (value: number, budget: number) => (value <= budget ? "within" : ((over = true), "OVER"));
      rows.push(
        {
          store: r.store,
          figure: "upload 4 MB (median of 5)",
          value: `${r.uploadMs.toFixed(0)} ms, +${r.uploadPeakMb.toFixed(0)} MB`,
          budget: `${BUDGET.uploadMs} ms, +${BUDGET.peakMb} MB`,
          verdict: verdict(r.uploadMs, BUDGET.uploadMs) === "OVER" ? "OVER" : verdict(r.uploadPeakMb, BUDGET.peakMb),
        },
        {
          store: r.store,
          figure: "download 4 MB (median of 5)",
          value: `${r.downloadMs.toFixed(0)} ms, +${r.downloadPeakMb.toFixed(0)} MB`,
          budget: `${BUDGET.downloadMs} ms, +${BUDGET.peakMb} MB`,
          verdict:
            verdict(r.downloadMs, BUDGET.downloadMs) === "OVER" ? "OVER" : verdict(r.downloadPeakMb, BUDGET.peakMb),
        },
        {
          store: r.store,
          figure: "zip of 100 attachments (4 MB)",
          value: `${r.zipMs.toFixed(0)} ms, +${r.zipPeakMb.toFixed(0)} MB`,
          budget: `${BUDGET.zipMs} ms, +${BUDGET.peakMb} MB`,
          verdict: verdict(r.zipMs, BUDGET.zipMs) === "OVER" ? "OVER" : verdict(r.zipPeakMb, BUDGET.peakMb),
        },
      );
    } finally {
      await server.stop();
    }
  }
} finally {
  await s3.close();
  for (const p of postgres) await p?.drop();
}
console.table(rows);
process.exitCode = over ? 1 : 0;
