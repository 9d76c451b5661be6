import { apiSink } from "~/answer-sink";
import type { Question } from "~/domain/survey";
import { caseContext } from "./case-context";
import { recordAnswer } from "./fill-store";
import { getSurvey } from "./survey-store";
import { forgetTyped, journalReady, typedValues, type TypedValue } from "./typed-journal";

/**
 * Delivers values typed on a fill page that went before they were kept (typed-journal.ts), when some other
 * page starts or the network returns: the page of that case takes its own values back itself. A value the
 * page kept on the device goes into the case's fill on the device; one it sent to the server is sent again
 * (an answer replaces the one before, so a value that had arrived changes nothing). A value stays noted
 * while there is no network, or no copy of its survey on the device.
 */
export async function deliverTyped(except?: { surveyId: number; patientId: string } | null): Promise<void> {
  if (!(await journalReady())) return;
  for (const noted of typedValues()) {
    if (except && noted.surveyId === except.surveyId && noted.patientId === except.patientId) continue;
    const done = noted.local ? await keepOnDevice(noted) : await sendAgain(noted);
    if (done) forgetTyped({ ...noted, questionId: noted.question.Id }, noted.value);
  }
}

async function sendAgain(noted: TypedValue): Promise<boolean> {
  const sink = apiSink({ PatientId: noted.patientId, SurveyId: noted.surveyId });
  const result = await sink.save(noted.question as Question, noted.value ?? undefined);
  // Refused (the case was closed meanwhile, say): as on the page, the value is not kept.
  return result.ok || result.type !== "NETWORK";
}

async function keepOnDevice(noted: TypedValue): Promise<boolean> {
  const survey = await getSurvey(noted.surveyId);
  if (!survey) return false;
  const context = await caseContext(survey, noted.patientId);
  await recordAnswer(context, noted.question as Question, noted.value ?? undefined);
  return true;
}

/** The case of the fill page at this address, if it is one. */
export function fillCaseAt(pathname: string): { surveyId: number; patientId: string } | null {
  const match = /^\/survey\/(\d+)\/fill\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return { surveyId: Number(match[1]), patientId: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}
