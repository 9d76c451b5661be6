import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudWordCounts, wordFrequencies } from "~/domain/word-cloud";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { CLOUD_WORDS } from "~/server/services/statistics/figures.server";
import { forgetKeptStatistics, warmStatistics } from "~/server/services/statistics/statistics.server";
import { countPendingWords } from "~/server/services/statistics/words.server";
import { dialects } from "../support/databases";
import { answersOf, buildSurvey, fillCase, read, useStatisticsWorld, type Body } from "./statistics-support";

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

  /**
   * Each question's totals (question_words) are the sum of its answers' words (response_words), once the
   * noted texts are counted and the gone words folded; no note is left behind.
   */
  async function expectTotalsAsWords(surveyId = fixture().survey) {
    const db = world().db;
    await countPendingWords(db, surveyId);
    const summed = await db
      .selectFrom("response_words")
      .select(["question_id", "word", (eb) => eb.fn.sum<number>("n").as("n")])
      .where("survey_id", "=", surveyId)
      .groupBy(["question_id", "word"])
      .execute();
    const totals = await db
      .selectFrom("question_words")
      .select(["question_id", "word", "n"])
      .where("survey_id", "=", surveyId)
      .execute();
    const byKey = (rows: { question_id: number; word: string; n: number | string }[]) =>
      Object.fromEntries(rows.map((r) => [`${r.question_id} ${r.word}`, Number(r.n)]));
    expect(byKey(totals)).toEqual(byKey(summed));
    const notes = await db
      .selectFrom("response_words_gone")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("survey_id", "=", surveyId)
      .executeTakeFirstOrThrow();
    expect(Number(notes.n)).toBe(0);
  }

  async function expectAsOracle() {
    expect(await cloudOf()).toEqual(await oracle());
    await expectTotalsAsWords();
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

  it("keeps the totals when answers and a survey go, and while copies count beside writers", async () => {
    const w = world();
    const f = fixture();
    // Texts changed while three copies count: every change is noted, counted or folded once.
    await Promise.all([
      ...[1, 2, 3].map(() => countPendingWords(w.db, f.survey)),
      ...[1, 2, 3].map((i) =>
        sql`update question_responses set text_response = ${`Atemnot Husten Runde ${i}`}
          where survey_id = ${f.survey} and question_id = ${f.q.notes}`.execute(w.db),
      ),
      sql`delete from question_responses where id = (select min(id) from question_responses
        where survey_id = ${f.survey} and question_id = ${f.q.notes})`.execute(w.db),
    ]);
    await expectAsOracle();
    expect((await cloudOf()).find((x) => x.Text === "husten")?.Count).toBeGreaterThan(0);

    // Every answer to the question removed (one statement): its totals go.
    await w.db.deleteFrom("question_responses").where("question_id", "=", f.q.notes).execute();
    await expectTotalsAsWords();
    const left = await w.db
      .selectFrom("question_words")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("question_id", "=", f.q.notes)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);

    // A survey deleted leaves no totals and no notes behind.
    const other = await buildSurvey(w.call, "Wörter, gelöscht");
    await fillCase(w, other, "D1", { ...answersOf.P1, notes: "Husten und Husten", close: true });
    await countPendingWords(w.db, other.survey);
    const rowsOf = async (table: "question_words" | "response_words_gone") =>
      Number(
        (
          await w.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("survey_id", "=", other.survey)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await rowsOf("question_words")).toBeGreaterThan(0);
    await w.db.deleteFrom("surveys").where("id", "=", other.survey).execute();
    expect(await rowsOf("question_words")).toBe(0);
    expect(await rowsOf("response_words_gone")).toBe(0);
  });

  it("counting beside writers that remove the texts being counted: nobody is refused, the totals hold", async () => {
    const w = world();
    const f = fixture();
    for (let round = 0; round < 8; round++) {
      const cases = await w.db
        .insertInto("patient_data")
        .values(
          Array.from({ length: 24 }, (_, i) => ({
            survey_id: f.survey,
            patient_id: `R${round}_${i}`,
            state: "Closed" as const,
          })),
        )
        .returning("id")
        .execute();
      await w.db
        .insertInto("question_responses")
        .values(
          cases.map((c, i) => ({
            survey_id: f.survey,
            patient_data_id: c.id,
            question_id: f.q.notes,
            text_response: `Husten Fieber Runde${round} Nummer${i}`,
          })),
        )
        .execute();
      // Two copies count while each case (and by cascade its text, note and words) is removed on its own.
      await Promise.all([
        countPendingWords(w.db, f.survey),
        countPendingWords(w.db, f.survey),
        ...cases.map((c) => w.db.deleteFrom("patient_data").where("id", "=", c.id).execute()),
      ]);
      await expectTotalsAsWords();
    }
    await expectAsOracle();
  });
});
