import { data, redirect, type ClientActionFunctionArgs, type ClientLoaderFunctionArgs } from "@remix-run/react";
import {
  fillBlock,
  fillPath,
  isClearRequest,
  normalizePatientId,
  resolveStartId,
  startSurvey,
  type StartProblem,
} from "~/domain/start-state";
import { caseLanguages, isCaseLanguage } from "~/domain/case-language";
import { reportNetworkError } from "./connectivity";
import { getEntry, recordLanguage } from "./fill-store";
import { isNetworkError } from "./network";
import { getSurvey } from "./survey-store";

const surveyIdOf = (params: { surveyId?: string }) => Number(params.surveyId);

/** The start page offline: from this device's copy, without open responses and suggestions (section 2). */
export async function startClientLoader<T>({ params, serverLoader }: ClientLoaderFunctionArgs): Promise<T> {
  try {
    return (await serverLoader()) as T;
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    reportNetworkError();
    const survey = await getSurvey(surveyIdOf(params));
    if (!survey) throw redirect("/surveys");
    return {
      survey: startSurvey(survey),
      blocked: fillBlock(survey),
      latest: null,
      imageUrl: "/client-image.svg",
    } as T;
  }
}

/**
 * The start form offline: the typed (or a generated) id opens the fill page from the device's copy.
 * A case closed on this device cannot be opened again. The form is read from a clone of the request,
 * so the server action can still read the original.
 */
export async function startClientAction({ params, request, serverAction }: ClientActionFunctionArgs) {
  const form = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    reportNetworkError();
  }
  const surveyId = surveyIdOf(params);
  const here = `/survey/${surveyId}`;
  const typed = String(form.get("patientId") ?? "");
  if (isClearRequest(form.get("intent"), typed, form.get("closedId"))) return redirect(here);
  const survey = await getSurvey(surveyId);
  if (!survey || fillBlock(survey)) return redirect(here);
  const target = resolveStartId(typed, survey.IsPatientIdAutoGenerationEnabled);
  if (!target.ok) return data<StartProblem>({ patientId: normalizePatientId(typed), problem: target.problem });
  const entry = await getEntry(surveyId, target.patientId);
  if (entry?.status === "Closed") return data<StartProblem>({ patientId: target.patientId, problem: "closed" });
  // A case new on this device starts in the language chosen (docs/decisions/055-fill-languages.md): kept on
  // the device at once, as the server keeps it for a case started online, unless it is the source language
  // (then there is nothing to keep yet). A case the device knows keeps its own.
  const language = String(form.get("language") ?? "");
  const known = entry ?? (await import("./case-copies").then((m) => m.getCaseCopy(surveyId, target.patientId)));
  if (!known && isCaseLanguage(survey, language) && language !== caseLanguages(survey)[0]) {
    const { caseContext } = await import("./case-context");
    await recordLanguage({ ...(await caseContext(survey, target.patientId)), language }, language);
  }
  return redirect(fillPath(surveyId, target.patientId));
}
