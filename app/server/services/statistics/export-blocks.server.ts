import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Survey } from "~/domain/survey";
import { dialectOf, type LeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import type { ClinicZone } from "~/server/time-zone.server";
import { countedCondition } from "./cases.server";
import { deflateBlock, type DeflatedBlock } from "./deflate-blocks.server";
import { encodeIn, keepLines, type caseLines } from "./export-lines.server";
import { pageText, readCasesPage, type CaseRow } from "./export-page.server";

/**
 * responses.csv of every counted case (no filter) from blocks of lines kept deflated
 * (docs/decisions/061-export-blocks.md, migration 0023): a block whose cases are as they were when it was
 * written is copied as it is, the other cases' lines are written (from their kept lines or their answers,
 * export-page.server.ts), deflated a block at a time and kept. An export of unchanged cases then only copies
 * compressed bytes: no line is read, put together or deflated again.
 */

/** Cases per block: about 1.4 MB of lines (700 bytes a case), a few hundred KB deflated. */
const BLOCK_CASES = 2000;
/** Blocks read per query; the next ones are read while these are written out. */
const BLOCKS_READ = 8;
/** Cases per page whose answers are read, and after a page of kept lines (export.server.ts reads 200 and 1,000). */
const PAGE = 500;
const KEPT_PAGE = 1000;

/** Between a case's fingerprint fields, between cases, and for a null: characters no field holds. */
const UNIT = "\u001f";
const RECORD = "\u001e";
const NONE = "\u0001";

/**
 * What a block's lines hold of each case besides its answers: its id, answers version and own cells. The
 * database builds the same text (`fingerprintSql`), so a block is checked without its cases travelling.
 */
function fingerprintOf(cases: CaseRow[]): string {
  const text = cases
    .map((c) =>
      [
        c.id,
        c.answers_version,
        c.patient_id,
        c.state,
        c.created_at,
        c.closed_at ?? NONE,
        c.language ?? NONE,
        c.respondent ?? NONE,
        c.respondent_link_id ?? NONE,
      ].join(UNIT),
    )
    .join(RECORD);
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** The fingerprint of the counted cases of a block's range: PostgreSQL hashes it, SQLite hands the text over. */
function fingerprintSql(db: DB) {
  const postgres = dialectOf(db) === "postgres";
  const char = (code: number) => sql.raw(postgres ? `chr(${code})` : `char(${code})`);
  const field = (column: string, nullable: boolean) => {
    const text = sql`cast(${sql.ref(`pd.${column}`)} as text)`;
    return nullable ? sql`coalesce(${text}, ${char(1)})` : text;
  };
  const fields = sql.join(
    [
      field("id", false),
      field("answers_version", false),
      field("patient_id", false),
      field("state", false),
      field("created_at", false),
      field("closed_at", true),
      field("language", true),
      field("respondent", true),
      field("respondent_link_id", true),
    ],
    sql` || ${char(31)} || `,
  );
  return postgres
    ? sql<string | null>`md5(string_agg(${fields}, ${char(30)} order by pd.id))`
    : sql<string | null>`group_concat(${fields}, ${char(30)} order by pd.id)`;
}

/** What a block was written for: the lines' layout (zone, questions), the separator and the survey's source language. */
export const blockLayout = (lineLayout: string, sep: ";" | ",", survey: Survey) =>
  `${lineLayout}.${sep}.${survey.SourceLanguage}`;

/** The survey's next blocks after a case id, with whether each still holds its cases as they are. */
async function readBlocks(db: DB, surveyId: number, layout: string, after: number) {
  const rows = await db
    .selectFrom("case_export_blocks as b")
    .select(["b.first_id", "b.last_id", "b.size", "b.crc", "b.breaks", "b.bytes", "b.fingerprint"])
    .select((eb) =>
      eb
        .selectFrom("patient_data as pd")
        .select(fingerprintSql(db).as("f"))
        .whereRef("pd.survey_id", "=", "b.survey_id")
        .where(countedCondition(db, {}))
        .whereRef("pd.id", ">=", "b.first_id")
        .whereRef("pd.id", "<=", "b.last_id")
        .as("present"),
    )
    .where("b.survey_id", "=", surveyId)
    .where("b.layout", "=", layout)
    .where("b.first_id", ">", after)
    .orderBy("b.first_id")
    .limit(BLOCKS_READ)
    .execute();
  const sqlite = dialectOf(db) === "sqlite";
  return rows.map((r) => ({
    first: r.first_id,
    last: r.last_id,
    breaks: r.breaks === 1,
    current:
      r.present !== null &&
      (sqlite ? createHash("md5").update(r.present, "utf8").digest("hex") : r.present) === r.fingerprint,
    block: { bytes: r.bytes, crc: Number(r.crc), size: r.size } satisfies DeflatedBlock,
  }));
}

/**
 * Keeps a block for the cases from `first` to `last`, in place of any block of the survey it overlaps. Only an
 * optimisation, as the kept lines: a refused write leaves the export as it is.
 */
async function keepBlock(
  store: DB,
  row: { survey_id: number; first_id: number; last_id: number; layout: string; fingerprint: string; breaks: boolean },
  block: DeflatedBlock,
) {
  try {
    await store.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("case_export_blocks")
        .where("survey_id", "=", row.survey_id)
        .where("first_id", "<=", row.last_id)
        .where("last_id", ">=", row.first_id)
        .execute();
      await trx
        .insertInto("case_export_blocks")
        .values({ ...row, breaks: row.breaks ? 1 : 0, size: block.size, crc: block.crc, bytes: block.bytes })
        .execute();
    });
  } catch (error) {
    log.info("export.block_not_kept", { cases: `${row.first_id}-${row.last_id}`, error: String(error) });
  }
}

/**
 * The blocks of responses.csv after its header: every counted case of the survey in id order, from kept
 * blocks where they hold and written anew (and kept) where not. `seen.breaks` tells whether a text held a
 * line break (the lines are then written again on one line each, by the export's page walk).
 */
export async function* responseBlocks(
  reader: LeanReader,
  survey: Survey,
  lines: ReturnType<typeof caseLines>,
  sep: ";" | ",",
  zone: ClinicZone,
  seen: { breaks: boolean },
): AsyncGenerator<DeflatedBlock> {
  const db = reader.db;
  const sqlite = dialectOf(db) === "sqlite";
  const layout = blockLayout(lines.layout, sep, survey);

  /**
   * The counted cases after `after` (up to `upTo`), written, deflated and kept a block at a time. The next
   * page is read, and the last one's lines and block kept, while a page is written: the database and zlib's
   * threads work beside this one. One write at a time, in order: a case's line is kept before its block
   * (keeping a line again removes the blocks that hold it, migration 0023).
   */
  async function* written(after: number, upTo: number | null): AsyncGenerator<DeflatedBlock> {
    let texts: string[] = [];
    let cases: CaseRow[] = [];
    let breaks = false;
    let start = after;
    let writes: Promise<unknown> = Promise.resolve();
    const read = (from: number, size: number) => readCasesPage(reader, lines, survey.Id, {}, from, size, upTo);
    const flush = (last: number) => {
      const deflated = deflateBlock(encodeIn(texts.join(""), sep));
      const row = {
        survey_id: survey.Id,
        first_id: start + 1,
        last_id: last,
        layout,
        fingerprint: fingerprintOf(cases),
        breaks,
      };
      writes = writes.then(async () => keepBlock(reader.writer(), row, await deflated));
      seen.breaks ||= breaks;
      [texts, cases, breaks, start] = [[], [], false, last];
      return deflated;
    };
    let next = read(after, PAGE);
    try {
      for (;;) {
        const page = await next;
        if (!page) break;
        const last = page.cases[page.cases.length - 1].id;
        next = read(last, page.stale.length === 0 ? KEPT_PAGE : PAGE);
        const made = pageText(page, lines, survey, zone, false, sqlite);
        await writes;
        writes = keepLines(reader.writer(), made.kept);
        texts.push(made.text);
        cases.push(...page.cases);
        breaks ||= made.breaks;
        if (cases.length >= BLOCK_CASES) yield await flush(last);
      }
      // The last block reaches to the end of the range it stands for, so that the blocks follow one another.
      if (cases.length > 0) yield await flush(upTo ?? cases[cases.length - 1].id);
      await writes;
    } finally {
      next.catch(() => undefined);
      writes.catch(() => undefined);
    }
  }

  let after = 0;
  let next = readBlocks(db, survey.Id, layout, 0);
  try {
    for (;;) {
      const blocks = await next;
      if (blocks.length === 0) break;
      next = readBlocks(db, survey.Id, layout, blocks[blocks.length - 1].first);
      for (const b of blocks) {
        if (b.first <= after) continue;
        // Cases between the blocks (none, as a rule: the blocks follow one another).
        if (b.first > after + 1) yield* written(after, b.first - 1);
        if (b.current) {
          seen.breaks ||= b.breaks;
          yield b.block;
        } else {
          // Gone first: a range none of whose cases counts any more leaves no block behind.
          await reader
            .writer()
            .deleteFrom("case_export_blocks")
            .where("survey_id", "=", survey.Id)
            .where("first_id", "=", b.first)
            .execute()
            .catch((error: unknown) => log.info("export.block_not_removed", { error: String(error) }));
          yield* written(b.first - 1, b.last);
        }
        after = b.last;
      }
    }
  } finally {
    next.catch(() => undefined);
  }
  yield* written(after, null);
}
