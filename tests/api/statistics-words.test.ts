import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudWordCounts, wordFrequencies } from "~/domain/word-cloud";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { CLOUD_WORDS } from "~/server/services/statistics/figures.server";
import { forgetKeptStatistics, warmStatistics } from "~/server/services/statistics/statistics.server";
import { countPendingWords } from "~/server/services/statistics/words.server";
import { dialects } from "../support/databases";
import { answersOf, fillCase, read, useStatisticsWorld, type Body } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * The word clouds come from words counted once per answer (response_words). The oracle is the cloud of the
 * counted cases' texts split into words from scratch, after each kind of write: through the API, and
 * straight into the database as another copy or an operator would (new, changed, removed texts).
 */
describe.each(dialects)("word clouds from the words counted per answer on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  async function cloudOf(filters: { PatientIds?: string[] } = {}) {
    forgetKeptStatistics();
    const res = await world().call("editor", "POST", `/statistics/${fixture().survey}`, filters);
    const body = (await read(res)) as Body;
    const q = body.CategoryStatistics.flatMap((c: Body) => c.QuestionStatistics).find(
      (x: Body) => x.QuestionId === fixture().q.notes,
    );
    return q.WordCloud as { Text: string; Count: number }[];
  }

  /** The cloud of the texts of the counted cases, read and split afresh. */
  async function oracle(patientIds?: string[]) {
    let query = world()
      .db.selectFrom("question_responses as qr")
      .innerJoin("patient_data as pd", "pd.id", "qr.patient_data_id")
      .select("qr.text_response")
      .where("qr.question_id", "=", fixture().q.notes)
      .where("pd.state", "=", "Closed")
      .where("qr.text_response", "is not", null);
    if (patientIds) query = query.where("pd.patient_id", "in", patientIds);
    const rows = await query.execute();
    return wordFrequencies(
      rows.map((r) => r.text_response!),
      CLOUD_WORDS,
    );
  }

  async function expectAsOracle() {
    expect(await cloudOf()).toEqual(await oracle());
    expect(await cloudOf({ PatientIds: ["P1", "P2", "W1"] })).toEqual(await oracle(["P1", "P2", "W1"]));
  }

  it("equals the texts' words after writes through the API and straight into the database", async () => {
    const w = world();
    const f = fixture();
    await expectAsOracle();
    expect((await cloudOf()).find((x) => x.Text === "atemnot")?.Count).toBe(2);

    // A case filled and closed through the API; an Open one does not count.
    await fillCase(w, f, "W1", { ...answersOf.P1, notes: "Kopfschmerz und Kopfschmerz am Morgen", close: true });
    await fillCase(w, f, "W2", { ...answersOf.P1, notes: "Kopfschmerz offen", close: false });
    await expectAsOracle();
    expect((await cloudOf()).find((x) => x.Text === "kopfschmerz")?.Count).toBe(2);

    // A text changed in place, one removed, one added: straight into the database.
    const notes = (patientId: string) =>
      sql`select qr.id from question_responses qr join patient_data pd on pd.id = qr.patient_data_id
        where pd.patient_id = ${patientId} and pd.survey_id = ${f.survey} and qr.question_id = ${f.q.notes}`;
    await sql`update question_responses set text_response = 'Schwindel Schwindel beim Aufstehen'
      where id in (${notes("P2")})`.execute(w.db);
    await sql`delete from question_responses where id in (${notes("P1")})`.execute(w.db);
    await sql`update question_responses set text_response = null, numerical_response = 1
      where id in (${notes("W1")})`.execute(w.db);
    await expectAsOracle();
    expect((await cloudOf()).find((x) => x.Text === "kopfschmerz")).toBeUndefined();
    expect((await cloudOf()).find((x) => x.Text === "schwindel")?.Count).toBe(3);

    // A case deleted takes its words with it.
    await w.db.deleteFrom("patient_data").where("id", "=", f.cases.P3).execute();
    await expectAsOracle();
    const left = await w.db
      .selectFrom("response_words")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("patient_data_id", "=", f.cases.P3)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it("counts each text once when copies count the same texts at the same time", async () => {
    const w = world();
    const f = fixture();
    // Many texts noted at once (a bulk update), then counted by three callers together.
    await sql`update question_responses set text_response = 'Husten Fieber ' || cast(id as text) || ' Husten'
      where survey_id = ${f.survey} and question_id = ${f.q.notes}`.execute(w.db);
    const counted = await Promise.all([1, 2, 3].map(() => countPendingWords(w.db, f.survey)));
    expect(counted.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const pending = await w.db
      .selectFrom("response_words_pending")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("survey_id", "=", f.survey)
      .executeTakeFirstOrThrow();
    expect(Number(pending.n)).toBe(0);
    // Every answer's words are its text's, once.
    const texts = await w.db
      .selectFrom("question_responses")
      .select(["id", "text_response"])
      .where("survey_id", "=", f.survey)
      .where("text_response", "is not", null)
      .execute();
    const words = await w.db
      .selectFrom("response_words")
      .select(["response_id", "word", "n"])
      .where("survey_id", "=", f.survey)
      .execute();
    const stored = new Map<number, Map<string, number>>();
    for (const r of words) {
      const mine = stored.get(r.response_id) ?? new Map<string, number>();
      expect(mine.has(r.word)).toBe(false);
      mine.set(r.word, Number(r.n));
      stored.set(r.response_id, mine);
    }
    for (const t of texts) expect(stored.get(t.id) ?? new Map()).toEqual(cloudWordCounts(t.text_response!));
    await expectAsOracle();
    expect((await cloudOf()).find((x) => x.Text === "husten")?.Count).toBeGreaterThanOrEqual(4);
  });

  it("a start readies the surveys with the most closed cases, their texts' words counted", async () => {
    const w = world();
    const f = fixture();
    await sql`update question_responses set text_response = 'Bereit nach dem Start'
      where survey_id = ${f.survey} and question_id = ${f.q.notes}`.execute(w.db);
    const pending = () =>
      w.db
        .selectFrom("response_words_pending")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("survey_id", "=", f.survey)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    expect(await pending()).toBeGreaterThan(0);
    const readied = await warmStatistics(w.db);
    expect(readied).toContain(f.survey);
    expect(readied.length).toBeLessThanOrEqual(3);
    expect(await pending()).toBe(0);
    await expectAsOracle();
  });
});
