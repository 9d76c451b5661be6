import { newIdempotencyKey } from "~/domain/idempotency";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import type { SyncErrorType } from "~/domain/offline-sync";
import type { AnswerKind } from "~/domain/question-types";
import type { CaseBase } from "./case-copies";
import type { ContentLanguage } from "~/domain/languages";

/** A file picked offline, kept on the device until it is uploaded. */
export interface LocalFile {
  name: string;
  type: string;
  bytes: ArrayBuffer;
  /** An uploadErrors key (406) or the server's message, after a refused upload. */
  error?: string;
}

/**
 * One fill made (or continued) on this device, stored under its patient id in the survey's store
 * (section 3): status, answers, preliminaryAnswers, questionTypes, notSynced, close and upload.
 */
export interface FillEntry {
  surveyId: number;
  surveyTitle: string;
  surveyHash: string;
  patientId: string;
  /** Client-made id of this fill, sent as the Idempotency-Key: a repeated sync has the effect of one. */
  fillId: string;
  status: "Open" | "Closed";
  answers: Answers;
  preliminaryAnswers: PreliminaryAnswers;
  questionTypes: Record<number, AnswerKind>;
  /** The answers have not reached the server yet. */
  notSynced: boolean;
  /** The fill was submitted: the case is closed once the answers are applied. */
  close: boolean;
  /** Replace the answers of the server's open case of this patient id (the user chose so). */
  overwrite: boolean;
  /**
   * The server's case this fill continues, as it stood (its answers version, answers and preliminary
   * answers): the sync then sends only what changed since, and the server applies it unless the case
   * changed meanwhile (docs/decisions/038-typed-work-kept.md). Not with `overwrite`.
   */
  base?: CaseBase;
  /** As the specification stores it: ssiUserDataId is the person's surveyUserDataId, userId the provider's subject. */
  upload: { files: Record<number, LocalFile[]>; ssiUserDataId: number; userId: string };
  /** Set once the answers are on the server: the files go to this case. */
  patientDataId?: number;
  /** The server has closed the case (files go first: a closed case takes no more files). */
  closeSent?: boolean;
  syncError?: SyncErrorType | "UNKNOWN";
  /**
   * The language the case is filled in, as last chosen on this device (docs/decisions/055-fill-languages.md);
   * absent in fills kept before languages: the survey's source language.
   */
  language?: ContentLanguage;
  /**
   * Set when the device was handed over to the patient for this case as it was changed here (decision 058):
   * the sync records the case as the patient's, as the online saves do.
   */
  respondent?: "handover";
  /** Bumped by every local change: a sync clears the entry only if nothing changed meanwhile. */
  rev: number;
  modified: string;
}

export function pendingFiles(entry: FillEntry): { questionId: number; file: LocalFile }[] {
  return Object.entries(entry.upload.files).flatMap(([id, files]) =>
    files.map((file) => ({ questionId: Number(id), file })),
  );
}

/**
 * Refused for good: the survey changed since the download or no longer takes answers, so the fill is refused
 * under any patient id and on every try. Neither a sync nor another id is offered; it can be exported or deleted.
 */
export function cannotSync(entry: Pick<FillEntry, "syncError">): boolean {
  return entry.syncError === "SYNC_SURVEY_OUTDATED_HASH" || entry.syncError === "SYNC_SURVEY_INVALID_STATUS";
}

/** A fresh client-made fill id (letters and digits, accepted as an Idempotency-Key). */
export const newFillId = newIdempotencyKey;
