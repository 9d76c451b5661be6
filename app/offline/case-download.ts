import { apiUrl, type AnswerOf, type Contract, type RequestOf } from "~/contracts/contract";
import { patientsApi } from "~/contracts/patients";
import { responsesApi } from "~/contracts/responses";
import { answersFromResponses, type PreliminaryAnswers } from "~/domain/answers";
import { getSurvey } from "./survey-store";
import { caseCopyIds, dropCaseCopy, getCaseCopy, keepCaseCopy, type CaseCopy } from "./case-copies";

/**
 * Brings the open cases of a stored survey onto the device (docs/decisions/038-typed-work-kept.md): those
 * the start page lists as latest (GET /patients/latest), each with its answers and preliminary answers and
 * the answers version they are of. Only cases whose version changed are read again; a kept case that is no
 * longer open on the server goes.
 */

type Listed = { PatientId: string; Version: number };

/** Latest open cases fetched per survey (section 9). */
export const LATEST_COUNT = 10;

/**
 * A read of the API; null for a refusal. A lost network throws (TypeError): a case is never dropped from the
 * device because the network failed while it was being read.
 */
async function read<C extends Contract>(c: C, request: RequestOf<C>): Promise<AnswerOf<C> | null> {
  const res = await fetch(apiUrl(c, request), { credentials: "same-origin", headers: { accept: "application/json" } });
  if (!res.ok) {
    await res.body?.cancel();
    return null;
  }
  return (await res.json()) as AnswerOf<C>;
}

/**
 * One open case as the server holds it: its version is read before and after its answers, so that the
 * copy never claims a version newer than its answers (a change in between reads it again).
 */
export async function fetchCaseCopy(surveyId: number, patientId: string): Promise<Omit<CaseCopy, "keptAt"> | null> {
  const query = { patientId, surveyId };
  for (let attempt = 0; attempt < 3; attempt++) {
    const record = await read(patientsApi.record, { query });
    if (record?.State !== "Open" || record.Version === undefined || !record.PatientDataId) return null;
    const [responses, attributes] = await Promise.all([
      read(responsesApi.answers, { query }),
      read(responsesApi.preliminaryAnswers, { query }),
    ]);
    if (!responses || !attributes) return null;
    const after = await read(patientsApi.record, { query });
    if (after?.Version !== record.Version) continue;
    const preliminary: PreliminaryAnswers = {};
    for (const a of attributes) preliminary[a.PatientFormAttributeId] = a.PatientFormAnswerOptionId;
    return {
      surveyId,
      patientId,
      patientDataId: record.PatientDataId,
      version: record.Version,
      answers: answersFromResponses(responses),
      preliminary,
    };
  }
  return null;
}

/** The start page's latest open cases, kept when the survey is kept on this device. */
export async function keepListedCases(surveyId: number, latest: { patientId: string; version: number }[]) {
  if (!(await getSurvey(surveyId))) return;
  await keepLatestCases(
    surveyId,
    latest.map((l) => ({ PatientId: l.patientId, Version: l.version })),
  );
}

/** Keeps the listed open cases (by default the survey's latest) as the server holds them. */
export async function keepLatestCases(surveyId: number, listed?: Listed[]): Promise<void> {
  const latest = listed ?? (await read(patientsApi.latest, { query: { count: LATEST_COUNT, surveyId } }));
  if (!latest) return;
  const ids = new Set(latest.map((l) => l.PatientId));
  await Promise.all(
    latest.map(async ({ PatientId, Version }) => {
      const kept = await getCaseCopy(surveyId, PatientId);
      if (kept?.version === Version) return;
      const copy = await fetchCaseCopy(surveyId, PatientId);
      if (copy) await keepCaseCopy(copy);
      else await dropCaseCopy(surveyId, PatientId);
    }),
  );
  // Cases kept earlier (opened here, or listed then): those no longer open on the server go.
  const others = (await caseCopyIds(surveyId)).filter((id) => !ids.has(id));
  await Promise.all(
    others.map(async (patientId) => {
      const record = await read(patientsApi.record, { query: { patientId, surveyId } });
      if (record?.State !== "Open") await dropCaseCopy(surveyId, patientId);
    }),
  );
}
