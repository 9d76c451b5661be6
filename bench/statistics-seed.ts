// Seeds one Active survey of 50 questions (mixed kinds) with closed cases and their answers (about 52 answer
// rows per case, so 100,000 cases give some 5 M rows) into a migrated database, with bulk inserts: one
// prepared statement in large transactions on SQLite; on PostgreSQL generated in the database, set-based
// (statistics-seed-postgres.ts).
// Used by bench/statistics-load.ts; on its own: npx tsx bench/statistics-seed.ts [cases]  (SQLite, temp dir)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { createDb } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import type { DB } from "~/server/db/types.server";
import { translatableTexts } from "~/domain/content-languages";
import { loadSurveyTree } from "~/server/services/survey-tree.server";
import { insertNewTranslations } from "~/server/services/translations/new-survey.server";
import type { BenchTarget } from "./database";
import { seedPostgresInDatabase } from "./statistics-seed-postgres";

export interface SeededSurvey {
  surveyId: number;
  cases: number;
  rows: number;
}

/** Deterministic pseudo-random numbers (mulberry32), so both databases get the same answers. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "Atemnot Husten Schwindel Müdigkeit Ödeme Herzrasen Schlaf besser schlechter Treppe Nacht Belastung Schmerzen Brust Beine Appetit Gewicht Tabletten Arzt Kontrolle".split(
    " ",
  );

/**
 * Question kinds in order: 20 single (5 of them test questions), 10 multiple, 8 numbers, 6 date-times, 6 free
 * texts. The single selections' answers score 0 to 4 and the survey adds them up (a 20-item scale).
 */
const KINDS = [
  ...Array<number>(20).fill(1),
  ...Array<number>(10).fill(2),
  ...Array<number>(8).fill(3),
  ...Array<number>(6).fill(4),
  ...Array<number>(6).fill(5),
];

interface Shape {
  surveyId: number;
  questions: { id: number; type: number; options: number[] }[];
}

async function createStructure(db: DB): Promise<Shape> {
  const now = new Date().toISOString();
  const survey = await db
    .insertInto("surveys")
    .values({
      title: "Statistik-Last",
      status: 2,
      score_title: "Summe",
      status_before_archive: null,
      start_date: null,
      end_date: null,
      source_survey_id: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
      archived_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("patient_forms").values({ survey_id: survey.id }).execute();
  const questions: Shape["questions"] = [];
  for (let c = 0; c < 5; c++) {
    const category = await db
      .insertInto("categories")
      .values({ survey_id: survey.id, title: `Kategorie ${c + 1}`, sort: c })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 10; i++) {
      const n = c * 10 + i;
      const type = KINDS[n] as 1 | 2 | 3 | 4 | 5;
      const test = type === 1 && n < 5;
      const q = await db
        .insertInto("questions")
        .values({
          survey_id: survey.id,
          category_id: category.id,
          parent_answer_option_id: null,
          title: `Frage ${n + 1}`,
          type,
          sort: i,
          unit: type === 3 ? "kg" : null,
          image_src: null,
          dependence_type: null,
          is_test_question: test ? 1 : 0,
          allow_file_attachments: type === 5 ? 1 : 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const options: number[] = [];
      if (type === 1 || type === 2) {
        for (let k = 0; k < 5; k++) {
          const o = await db
            .insertInto("answer_options")
            .values({
              survey_id: survey.id,
              question_id: q.id,
              text: `Antwort ${k + 1}`,
              value: String(k + 1),
              weight: test && k < 2 ? k + 1 : null,
              weighting_state: test ? (k < 2 ? 1 : 0) : 2,
              score: type === 1 ? k : null,
              sort: k,
              pos_x: null,
              pos_y: null,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          options.push(o.id);
        }
      }
      questions.push({ id: q.id, type, options });
    }
  }
  return { surveyId: survey.id, questions };
}

type Row = [
  caseId: number,
  questionId: number,
  option: number | null,
  text: string | null,
  number: number | null,
  date: string | null,
];

/** The answer rows of one case. */
function answersOf(shape: Shape, caseId: number, rnd: () => number, out: Row[]) {
  for (const q of shape.questions) {
    if (q.type === 1) out.push([caseId, q.id, q.options[Math.floor(rnd() * 5)], null, null, null]);
    else if (q.type === 2) {
      const first = Math.floor(rnd() * 5);
      out.push([caseId, q.id, q.options[first], null, null, null]);
      if (rnd() < 0.5) out.push([caseId, q.id, q.options[(first + 1 + Math.floor(rnd() * 4)) % 5], null, null, null]);
    } else if (q.type === 3) out.push([caseId, q.id, null, null, Math.round((40 + rnd() * 80) * 4) / 4, null]);
    else if (q.type === 4) {
      const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 365) * 86_400_000).toISOString().slice(0, 10);
      const minute = Math.floor(rnd() * 96) * 15;
      const time = `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
      out.push([caseId, q.id, null, null, null, `${day}T${time}`]);
    } else if (rnd() < 0.5) {
      const words = Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => WORDS[Math.floor(rnd() * WORDS.length)]);
      out.push([caseId, q.id, null, `Seit gestern ${words.join(" ")}`, null, null]);
    }
  }
}

const CASE_BATCH = 2000;

function caseTimes(i: number) {
  const created = new Date(Date.UTC(2024, 0, 1) + i * 60_000);
  return {
    created: created.toISOString(),
    closed: new Date(created.getTime() + 3_600_000).toISOString(),
  };
}

async function seedSqlite(file: string, shape: Shape, cases: number): Promise<number> {
  const raw = new SQLite(file);
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = OFF");
  raw.pragma("cache_size = -262144");
  const addCase = raw.prepare(
    "insert into patient_data (survey_id, patient_id, state, team_id, created_by_user_id, created_at, modified_at, closed_at) values (?, ?, 'Closed', null, null, ?, ?, ?)",
  );
  const addAnswer = raw.prepare(
    "insert into question_responses (survey_id, patient_data_id, question_id, answer_option_id, text_response, numerical_response, date_time_response, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const rnd = random(42);
  let total = 0;
  const batch = raw.transaction((from: number, to: number) => {
    const rows: Row[] = [];
    for (let i = from; i < to; i++) {
      const t = caseTimes(i);
      const id = Number(addCase.run(shape.surveyId, `S${i}`, t.created, t.closed, t.closed).lastInsertRowid);
      rows.length = 0;
      answersOf(shape, id, rnd, rows);
      for (const r of rows) addAnswer.run(shape.surveyId, ...r, t.created, t.closed);
      total += rows.length;
    }
  });
  for (let from = 0; from < cases; from += CASE_BATCH) batch(from, Math.min(cases, from + CASE_BATCH));
  raw.pragma("optimize");
  raw.exec("analyze");
  raw.close();
  return total;
}

/**
 * Offers the seeded survey in `language` with every one of its texts translated (docs/decisions/056-statistics-
 * languages.md), as an editor's translation would store them; a seed kept from before is translated anew.
 * Returns the texts translated.
 */
export async function translateSeeded(db: DB, surveyId: number, language: string): Promise<number> {
  const rights = { CanParticipate: false, CanEdit: true, CanApprove: true };
  const survey = (await loadSurveyTree(db, surveyId, rights))!;
  const texts = translatableTexts(survey).map((t, i) => ({
    key: t.key,
    source: t.source,
    texts: { [language]: `${language}·${i} ${t.source}` },
  }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("survey_translations").where("survey_id", "=", surveyId).execute();
    await insertNewTranslations(trx, surveyId, texts);
    await trx
      .updateTable("surveys")
      .set({ languages: JSON.stringify([language]), updated_at: new Date().toISOString() })
      .where("id", "=", surveyId)
      .execute();
  });
  return texts.length;
}

/** Creates the survey through Kysely, then bulk-inserts its cases and answers. */
export async function seedStatistics(db: DB, target: BenchTarget, cases: number): Promise<SeededSurvey> {
  const shape = await createStructure(db);
  const rows =
    target.kind === "sqlite"
      ? await seedSqlite(target.file, shape, cases)
      : await seedPostgresInDatabase(target.url, shape.surveyId, cases);
  return { surveyId: shape.surveyId, cases, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cases = Number(process.argv[2] ?? 100_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-stats-seed-"));
  const db = createDb({ dataDir });
  await migrateToLatest(db);
  const started = performance.now();
  const seeded = await seedStatistics(db, { kind: "sqlite", file: path.join(dataDir, "survey.sqlite") }, cases);
  console.log(
    `seeded survey ${seeded.surveyId}: ${seeded.cases} cases, ${seeded.rows} answer rows in ${Math.round(performance.now() - started)} ms (${dataDir})`,
  );
  await db.destroy();
}
