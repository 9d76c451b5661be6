/** One text of a survey in one language (migration 0019, docs/decisions/054-content-languages.md). */
export interface SurveyTranslationsTable {
  survey_id: number;
  language: string;
  /** The text's key: "Title", "question:12", "question:12:Hint", "answer:40", … */
  text_key: string;
  text: string;
  /** The digest of the source text the translation was made from (`sourceDigest`). */
  source_digest: string;
}
