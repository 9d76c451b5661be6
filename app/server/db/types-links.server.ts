import type { Generated } from "kysely";

/** A patient's one-time link to one case (migration 0020, docs/decisions/057-patient-links.md). */
export interface PatientLinksTable {
  id: Generated<number>;
  survey_id: number;
  patient_data_id: number;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  /** SHA-256 (hex) of the short code, normalised; the code itself is never stored. */
  code_hash: string;
  /** The content language the link opens in; null: the survey's source language. */
  language: string | null;
  expires_at: string;
  created_by_user_id: number | null;
  created_at: string;
  opened_at: string | null;
  last_seen_at: string | null;
  /** The first answer saved through the link. */
  answered_at: string | null;
  submitted_at: string | null;
  revoked_at: string | null;
  /** The link a renewal replaced. */
  renewed_from: number | null;
  /** SHA-256 (hex) of the cookie the link's caller carries since the link was last opened. */
  session_hash: string | null;
}
