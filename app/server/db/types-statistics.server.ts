/**
 * The tables the statistics keep for themselves beside the answers: the words counted per free text and
 * their totals (migrations 0010, 0013), the export's kept lines (migration 0014) and the cases' kept total
 * scores (migration 0018), and the answer counts (migration 0022). Part of the schema in
 * types.server.ts, which re-exports them.
 */

/** A free-text answer's cloud words, each with how often the text uses it (migration 0010). */
export interface ResponseWordsTable {
  response_id: number;
  survey_id: number;
  question_id: number;
  patient_data_id: number;
  word: string;
  n: number;
}

/** Free texts written or changed since their words were counted (noted by triggers, migration 0010). */
export interface ResponseWordsPendingTable {
  response_id: number;
  survey_id: number;
}

/** A free-text question's cloud words over all its answers: the sum of response_words (migration 0013). */
export interface QuestionWordsTable {
  survey_id: number;
  question_id: number;
  word: string;
  n: number;
}

/** Word rows that left response_words and are not yet taken off question_words (noted by a trigger, 0013). */
export interface ResponseWordsGoneTable {
  survey_id: number;
  question_id: number;
  word: string;
  n: number;
}

/** A case's CSV export line as last written, with what it was written for (migration 0014). */
export interface CaseExportRowsTable {
  patient_data_id: number;
  answers_version: number;
  layout: string;
  line: string;
}

/** A run of cases' export lines kept deflated, with what they were written for (migration 0023, decision 061). */
export interface CaseExportBlocksTable {
  survey_id: number;
  first_id: number;
  last_id: number;
  layout: string;
  fingerprint: string;
  size: number;
  crc: number;
  breaks: number;
  bytes: Uint8Array;
}

/** A case's total score as last added up, with what it was added up from (migration 0018, decision 051). */
export interface CaseTotalsTable {
  patient_data_id: number;
  answers_version: number;
  /** The survey's scores it was added up with (`scoresKey` in statistics/totals.server.ts). */
  scores_key: string;
  /** Ten-thousandths of a point; null: none of the case's answers has a score. */
  units: number | null;
}

/**
 * A survey's count of one kind over all its answer rows (migration 0022, decision 062): `o` rows per option,
 * `c` cases with an option chosen, `n` rows per number, `d` date-time rows per day (and their minutes into
 * the day), `t` text rows. The same shape holds the signed changes not yet folded in (`answer_count_changes`).
 */
export interface AnswerCountsTable {
  survey_id: number;
  question_id: number;
  kind: "o" | "c" | "n" | "d" | "t";
  option_id: number;
  value: number;
  day: string;
  n: number;
  minutes: number;
}
