import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { dialects } from "../support/databases";
import {
  built,
  caller,
  createPostgresDatabase,
  fill,
  killHard,
  makeSurvey,
  serverEnv,
  signIn,
  startHealthy,
  type Running,
  type Survey,
} from "./real-server";

/**
 * The server killed (SIGKILL, no chance to finish anything) in the middle of a stream of answer writes and
 * of offline syncs, then started again on the same database: every write that was answered 2xx is there,
 * no sync is half-applied, and syncs retried with their Idempotency-Key apply once.
 */

const PATIENTS = 60;
const SYNCS = 40;

/** Runs send(i) for i in 0..count-1, `width` at a time; stops starting new ones once stop() says so. */
async function stream(count: number, width: number, send: (i: number) => Promise<boolean>, stop: () => boolean) {
  const ok: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count && !stop()) {
      const i = next++;
      try {
        if (await send(i)) ok.push(i);
      } catch {
        // the connection died with the server: the outcome is unknown, which the checks allow for
      }
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return ok;
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(!dialects.includes(kind))(`the server killed mid-write [${kind}]`, () => {
    let env: Record<string, string>;
    let server: Running;
    let dropDb: (() => Promise<unknown>) | undefined;
    let db: DB;
    let survey: Survey;
    let cookie: string;
    const run = Date.now().toString(36);

    beforeAll(async () => {
      if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
      const extra: Record<string, string> = { DEMO_DATA: "0" };
      if (kind === "postgres") {
        const database = await createPostgresDatabase();
        extra.DATABASE_URL = database.url;
        dropDb = database.drop;
      }
      env = await serverEnv(extra);
      server = await startHealthy(env);
      db = createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      cookie = await signIn(server.url, "admin");
      survey = await makeSurvey(caller(server.url, cookie));
    }, 60_000);

    afterAll(async () => {
      await killHard(server);
      await db?.destroy();
      await dropDb?.();
      fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    });

    async function restart() {
      await killHard(server);
      server = await startHealthy(env);
    }

    /** Kills the server once `enough` writes were answered 2xx, while the stream goes on. */
    function killAfter(enough: () => boolean) {
      let killed = false;
      const watcher = (async () => {
        while (!enough()) await new Promise((r) => setTimeout(r, 5));
        killed = true;
        server.child.kill("SIGKILL");
      })();
      return { stopped: () => killed, watcher };
    }

    it("keeps every answer that was answered 2xx", async () => {
      const call = caller(server.url, cookie);
      for (let i = 0; i < PATIENTS; i++) {
        await call("POST", `/patients/add?patientId=${encodeURIComponent(`K_${run}_${i}`)}&surveyId=${survey.id}`);
      }
      const answered: number[] = [];
      const { stopped, watcher } = killAfter(() => answered.length >= PATIENTS / 3);
      const send = async (i: number) => {
        const res = await fetch(`${server.url}/api/question-responses/free-text`, {
          method: "POST",
          headers: { cookie, origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({
            PatientId: `K_${run}_${i}`,
            SurveyId: survey.id,
            QuestionId: survey.textId,
            TextResponse: `answer ${i}`,
          }),
        });
        await res.arrayBuffer();
        if (res.ok) answered.push(i);
        return res.ok;
      };
      const ok = await stream(PATIENTS, 8, send, stopped);
      await watcher;
      expect(ok.length).toBeGreaterThanOrEqual(PATIENTS / 3);
      expect(ok.length).toBeLessThan(PATIENTS);
      await restart();

      const rows = await db
        .selectFrom("question_responses as r")
        .innerJoin("patient_data as pd", "pd.id", "r.patient_data_id")
        .select(["pd.patient_id", "r.text_response"])
        .where("r.question_id", "=", survey.textId)
        .execute();
      const stored = new Map(rows.map((r) => [r.patient_id, r.text_response]));
      for (const i of ok) expect(stored.get(`K_${run}_${i}`)).toBe(`answer ${i}`);
      // Nothing else arrived: a row is either the request's answer or absent.
      for (const [patientId, text] of stored) expect(text).toBe(`answer ${patientId.split("_").pop()}`);
      // The restarted server takes answers again with the same session.
      const after = await fetch(`${server.url}/api/question-responses/free-text`, {
        method: "POST",
        headers: { cookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({
          PatientId: `K_${run}_${PATIENTS - 1}`,
          SurveyId: survey.id,
          QuestionId: survey.textId,
          TextResponse: "after restart",
        }),
      });
      expect(after.status).toBe(200);
    }, 120_000);

    it("applies a sync wholly or not at all, and a retried one once", async () => {
      const user = await signIn(server.url, "user");
      const patientId = (i: number) => `S_${run}_${i}`;
      const sendSync = async (i: number) => {
        const res = await fetch(`${server.url}/api/survey-offline-sync/${survey.id}`, {
          method: "POST",
          headers: {
            cookie: user,
            origin: server.url,
            "content-type": "application/json",
            "idempotency-key": `key-${run}-${i}`,
          },
          body: JSON.stringify(fill(survey, patientId(i), i)),
        });
        await res.arrayBuffer();
        return res.ok;
      };
      let synced = 0;
      const { stopped, watcher } = killAfter(() => synced >= SYNCS / 4);
      const ok = await stream(
        SYNCS,
        6,
        async (i) => {
          const done = await sendSync(i);
          if (done) synced++;
          return done;
        },
        stopped,
      );
      await watcher;
      expect(ok.length).toBeLessThan(SYNCS);
      await restart();

      const cases = async () =>
        db
          .selectFrom("patient_data as pd")
          .leftJoin("question_responses as r", "r.patient_data_id", "pd.id")
          .select(["pd.id", "pd.patient_id", "pd.state"])
          .select((eb) => eb.fn.count<number>("r.id").as("answers"))
          .where("pd.survey_id", "=", survey.id)
          .where("pd.patient_id", "like", `S_${run}_%`)
          .groupBy(["pd.id", "pd.patient_id", "pd.state"])
          .execute();
      const afterKill = await cases();
      // No partial case: every case the syncs made has both answers.
      for (const c of afterKill) expect(Number(c.answers)).toBe(2);
      const present = new Set(afterKill.map((c) => c.patient_id));
      for (const i of ok) expect(present.has(patientId(i))).toBe(true);

      // Every sync sent again with its key (the device retries all it has not seen confirmed, and some twice).
      const retried = await Promise.all(Array.from({ length: SYNCS }, (_, i) => sendSync(i)));
      expect(retried.every(Boolean)).toBe(true);
      const again = await Promise.all(Array.from({ length: SYNCS }, (_, i) => sendSync(i)));
      expect(again.every(Boolean)).toBe(true);

      const final = await cases();
      expect(final).toHaveLength(SYNCS);
      expect(new Set(final.map((c) => c.patient_id)).size).toBe(SYNCS);
      for (const c of final) expect(Number(c.answers)).toBe(2);
      const requests = await db
        .selectFrom("sync_requests")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("survey_id", "=", survey.id)
        .executeTakeFirstOrThrow();
      expect(Number(requests.n)).toBe(SYNCS);
      const audits = await db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("survey_id", "=", survey.id)
        .where("action", "=", "case.sync")
        .executeTakeFirstOrThrow();
      expect(Number(audits.n)).toBe(SYNCS);
      // A write cut off by the kill took its audit row and its chain head with it.
      expect(await verifyStoredChain(db, String(survey.id))).toMatchObject({ ok: true });
    }, 180_000);
  });
}
