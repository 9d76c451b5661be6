import { isContentLanguage } from "~/domain/content-languages";
import { AppError } from "~/domain/errors";
import { isLive, linkExpiry, linkState, surveyTakesLinks, type LinkState } from "~/domain/patient-links";
import { isValidPatientId } from "~/domain/patient-id";
import { isUniqueViolation } from "~/server/db/db.server";
import type { DB, Executor, Row, Trx } from "~/server/db/types.server";
import { audit } from "../audit.server";
import { auditCase, requireFillableSurvey } from "../fill/access.server";
import { findCase } from "../fill/cases.server";
import { requireSurvey, type SurveyAccess } from "../survey-access.server";
import { actorOf, type SurveyCaller } from "../surveys.server";
import { codeHash, newLinkCode, newLinkToken, tokenHash } from "./secrets.server";

/**
 * Staff's side of patients' one-time links (docs/decisions/057-patient-links.md): make one for a new or an
 * Open case, list them with their states, revoke and renew. Who may: those who may take part in the survey
 * (fill its cases), the same rule as for filling the case themselves. The plain token and code leave the
 * server once, in the answer to the request that made them.
 */

export type LinkRow = Row<"patient_links">;

export interface PatientLinkView {
  Id: number;
  SurveyId: number;
  PatientDataId: number;
  PatientId: string;
  Language: string | null;
  State: LinkState;
  ExpiresAt: string;
  CreatedAt: string;
  OpenedAt: string | null;
  SubmittedAt: string | null;
  RevokedAt: string | null;
  RenewedFrom: number | null;
}

export interface MadeLink {
  Link: PatientLinkView;
  /** The token of the link's address (/l/<token>): given once, stored only hashed. */
  Token: string;
  /** The short code to type on /l, grouped for reading: given once, stored only hashed. */
  Code: string;
}

export function linkView(row: LinkRow, patientId: string, now = new Date()): PatientLinkView {
  return {
    Id: row.id,
    SurveyId: row.survey_id,
    PatientDataId: row.patient_data_id,
    PatientId: patientId,
    Language: row.language,
    State: linkState(row, now),
    ExpiresAt: row.expires_at,
    CreatedAt: row.created_at,
    OpenedAt: row.opened_at,
    SubmittedAt: row.submitted_at,
    RevokedAt: row.revoked_at,
    RenewedFrom: row.renewed_from,
  };
}

/** The languages a link may open in: the survey's source language and those it offers. */
function checkLanguage(access: SurveyAccess, language: string | null | undefined): string | null {
  if (!language || language === access.row.source_language) return null;
  const offered = JSON.parse(access.row.languages) as string[];
  if (!isContentLanguage(language) || !offered.includes(language)) {
    throw new AppError("VALIDATION_ERROR", `The survey is not offered in ${language}`);
  }
  return language;
}

/** An Active survey the caller may fill: links work on no other (Draft, Pending, Ended, Closed, Archived). */
async function requireLinkSurvey(trx: Executor, caller: SurveyCaller, surveyId: number) {
  const access = await requireFillableSurvey(trx, caller, surveyId);
  if (!surveyTakesLinks(access.status)) throw new AppError("SURVEY_INVALID_STATUS", "Links need an Active survey");
  return access;
}

/** Inserts a link for an Open case with fresh secrets; an Open case waits for its patient until it expires. */
async function insertLink(
  trx: Trx,
  caller: SurveyCaller,
  kase: { id: number; survey_id: number; held_until: string | null },
  input: { language: string | null; days?: number; renewedFrom?: number },
): Promise<{ row: LinkRow; token: string; code: string }> {
  const now = new Date();
  const token = newLinkToken();
  const code = newLinkCode();
  const expires = linkExpiry(now, input.days);
  const row = await trx
    .insertInto("patient_links")
    .values({
      survey_id: kase.survey_id,
      patient_data_id: kase.id,
      token_hash: tokenHash(token),
      code_hash: codeHash(code),
      language: input.language,
      expires_at: expires,
      created_by_user_id: caller.surveyUserDataId,
      created_at: now.toISOString(),
      renewed_from: input.renewedFrom ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (!kase.held_until || kase.held_until < expires) {
    await trx.updateTable("patient_data").set({ held_until: expires }).where("id", "=", kase.id).execute();
  }
  // A row of the survey's trail without the patient's id: the link's number leads to the case only while the
  // case (and so its links) exists; an erasure removes both.
  await audit(trx, actorOf(caller), {
    action: input.renewedFrom ? "link.renew" : "link.create",
    entity: "patient_link",
    entityId: row.id,
    surveyId: kase.survey_id,
    after: {
      LinkId: row.id,
      ExpiresAt: expires,
      Language: input.language,
      ...(input.renewedFrom ? { RenewedFrom: input.renewedFrom } : {}),
    },
  });
  return { row, token, code };
}

export interface CreateLinkInput {
  SurveyId: number;
  PatientId: string;
  ExpiryDays?: number;
  Language?: string | null;
}

/**
 * A link for the case of PatientId: its Open case, or a new one when the id names none (the survey's rules
 * for ids apply). 409 SURVEY_ALREADY_CLOSED for a closed case.
 */
export async function createLink(db: DB, caller: SurveyCaller, input: CreateLinkInput): Promise<MadeLink> {
  try {
    return await db.transaction().execute(async (trx) => {
      const access = await requireLinkSurvey(trx, caller, input.SurveyId);
      const language = checkLanguage(access, input.Language);
      let kase = await findCase(trx, input.SurveyId, input.PatientId, { lock: true });
      if (kase && kase.state !== "Open") {
        throw new AppError("SURVEY_ALREADY_CLOSED", `The case ${input.PatientId} is already closed`);
      }
      if (!kase) {
        if (!isValidPatientId(input.PatientId)) throw new AppError("VALIDATION_ERROR", "The patient id is not valid");
        const now = new Date().toISOString();
        kase = await trx
          .insertInto("patient_data")
          .values({
            survey_id: input.SurveyId,
            patient_id: input.PatientId,
            state: "Open",
            team_id: caller.teamIds[0] ?? null,
            created_by_user_id: caller.surveyUserDataId,
            created_at: now,
            modified_at: now,
            closed_at: null,
            language,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await auditCase(trx, caller, {
          action: "case.create",
          entity: "patient_data",
          entityId: kase.id,
          surveyId: input.SurveyId,
          patientDataId: kase.id,
          after: { PatientId: input.PatientId },
        });
      }
      const made = await insertLink(trx, caller, kase, { language, days: input.ExpiryDays });
      return { Link: linkView(made.row, kase.patient_id), Token: made.token, Code: made.code };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("SURVEY_PATIENTID_EXISTS", "The case was just started");
    throw error;
  }
}

/** The links of a survey's case (or of all its cases), newest first, with their states. */
export async function listLinks(
  db: DB,
  caller: SurveyCaller,
  query: { surveyId: number; patientId?: string },
): Promise<PatientLinkView[]> {
  await requireSurvey(db, caller, query.surveyId, "participate");
  let select = db
    .selectFrom("patient_links as l")
    .innerJoin("patient_data as p", "p.id", "l.patient_data_id")
    .selectAll("l")
    .select("p.patient_id")
    .where("l.survey_id", "=", query.surveyId);
  if (query.patientId !== undefined) select = select.where("p.patient_id", "=", query.patientId);
  const rows = await select.orderBy("l.id", "desc").limit(500).execute();
  const now = new Date();
  return rows.map((r) => linkView(r, r.patient_id, now));
}

/** A link of a survey the caller may fill, locked; 404 when there is none or it is not theirs to see. */
async function linkForChange(trx: Trx, caller: SurveyCaller, linkId: number) {
  const row = await trx.selectFrom("patient_links").selectAll().where("id", "=", linkId).executeTakeFirst();
  if (!row) throw new AppError("NOT_FOUND", `There is no link ${linkId}`);
  await requireSurvey(trx, caller, row.survey_id, "participate");
  const kase = await trx
    .selectFrom("patient_data")
    .select(["id", "survey_id", "patient_id", "state", "held_until"])
    .where("id", "=", row.patient_data_id)
    .executeTakeFirstOrThrow();
  return { row, kase };
}

async function markRevoked(trx: Trx, caller: SurveyCaller, row: LinkRow, why: "revoke" | "renew") {
  const now = new Date().toISOString();
  const done = await trx
    .updateTable("patient_links")
    // The cookie of whoever opened it stays known, so that its pages say "withdrawn"; it opens nothing.
    .set({ revoked_at: now })
    .where("id", "=", row.id)
    .where("revoked_at", "is", null)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (why === "revoke") {
    await audit(trx, actorOf(caller), {
      action: "link.revoke",
      entity: "patient_link",
      entityId: row.id,
      surveyId: row.survey_id,
      after: { LinkId: row.id, RevokedAt: now },
    });
  }
  return done;
}

/** Revokes a live link at once: its address, code and the cookie of whoever opened it stop working. */
export async function revokeLink(db: DB, caller: SurveyCaller, linkId: number): Promise<PatientLinkView> {
  return db.transaction().execute(async (trx) => {
    const { row, kase } = await linkForChange(trx, caller, linkId);
    if (!isLive(linkState(row, new Date()))) throw new AppError("LINK_NOT_LIVE", `Link ${linkId} is not live`);
    return linkView(await markRevoked(trx, caller, row, "revoke"), kase.patient_id);
  });
}

/**
 * A new link for the same case in place of this one (revoked; an expired one may be renewed too): a new
 * token and code, the same language, a new expiry. 409 when the case is closed or the link was submitted.
 */
export async function renewLink(
  db: DB,
  caller: SurveyCaller,
  linkId: number,
  input: { ExpiryDays?: number },
): Promise<MadeLink> {
  return db.transaction().execute(async (trx) => {
    const { row, kase } = await linkForChange(trx, caller, linkId);
    const state = linkState(row, new Date());
    if (state === "revoked" || state === "submitted") {
      throw new AppError("LINK_NOT_LIVE", `Link ${linkId} is ${state}`);
    }
    await requireLinkSurvey(trx, caller, row.survey_id);
    if (kase.state !== "Open") throw new AppError("SURVEY_ALREADY_CLOSED", `The case ${kase.patient_id} is closed`);
    if (state !== "expired") await markRevoked(trx, caller, row, "renew");
    else await trx.updateTable("patient_links").set({ session_hash: null }).where("id", "=", row.id).execute();
    const made = await insertLink(trx, caller, kase, {
      language: row.language,
      days: input.ExpiryDays,
      renewedFrom: row.id,
    });
    return { Link: linkView(made.row, kase.patient_id), Token: made.token, Code: made.code };
  });
}
