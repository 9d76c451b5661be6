/**
 * The statistics screen's state lives in the URL, so that a filtered, benchmarked view is a link (section 2:
 * bookmarkable deep links): filters, benchmark survey, chosen category and the display toggles.
 */
import { wireToIsoDate } from "~/domain/dates";
import { positiveId, positiveIds } from "~/domain/ids";
import { isValidPatientId } from "~/domain/patient-id";
import { contentLanguages, isContentLanguage, type ContentLanguage } from "~/domain/content-languages";
import { respondentKinds, type RespondentKind } from "~/domain/respondents";

export interface StatisticsFilters {
  TeamIdsFilter?: number[];
  PatientIds?: string[];
  /** Preliminary question id → chosen preliminary answer ids. */
  PreliminaryQuestionsSelection?: Record<string, number[]>;
  /** dd.MM.yyyy */
  StartDateTime?: string;
  /** dd.MM.yyyy */
  EndDateTime?: string;
  /** The cases filled in these languages (a case without a stored one is in the source language). */
  Languages?: ContentLanguage[];
  /** The cases answered by staff, by the patient through a link, or on a handed-over device (decision 057). */
  Respondents?: RespondentKind[];
}

export interface StatisticsView {
  filters: StatisticsFilters;
  benchmark: number | null;
  category: number | null;
  /** Scores as percentages (default) or raw scores. */
  percent: boolean;
  pie: boolean;
  cloud: boolean;
  /** The language the survey's labels are shown in; null: the default (the interface's, else the source). */
  language: ContentLanguage | null;
}

const MAX_LIST = 1000;
const ids = (values: string[]) => positiveIds(values, MAX_LIST);
const positive = positiveId;
const date = (value: string | null) => (value && wireToIsoDate(value) ? value : undefined);

/** Reads the view from a URL's search parameters; anything malformed is left out. */
export function readView(params: URLSearchParams): StatisticsView {
  const filters: StatisticsFilters = {};
  const teams = ids(params.getAll("team"));
  if (teams.length) filters.TeamIdsFilter = teams;
  const patients = [...new Set(params.getAll("patient").filter((p) => p !== "" && isValidPatientId(p)))].slice(
    0,
    MAX_LIST,
  );
  if (patients.length) filters.PatientIds = patients;
  const selection: Record<string, number[]> = {};
  for (const key of new Set(params.keys())) {
    const attribute = /^pq(\d+)$/.exec(key)?.[1];
    if (!attribute) continue;
    const chosen = ids(params.getAll(key));
    if (chosen.length) selection[String(Number(attribute))] = chosen;
  }
  if (Object.keys(selection).length) filters.PreliminaryQuestionsSelection = selection;
  const from = date(params.get("from"));
  const to = date(params.get("to"));
  if (from) filters.StartDateTime = from;
  if (to) filters.EndDateTime = to;
  const languages = contentLanguages.filter((l) => params.getAll("caseLang").includes(l));
  if (languages.length) filters.Languages = languages;
  const respondents = respondentKinds.filter((r) => params.getAll("respondent").includes(r));
  if (respondents.length) filters.Respondents = respondents;
  const language = params.get("lang");
  return {
    filters,
    benchmark: positive(params.get("benchmark")),
    category: positive(params.get("category")),
    percent: params.get("raw") !== "1",
    pie: params.get("pie") === "1",
    cloud: params.get("cloud") === "1",
    language: language && isContentLanguage(language) ? language : null,
  };
}

/** Writes a view back as search parameters (defaults left out), the inverse of readView. */
export function writeView(view: StatisticsView): URLSearchParams {
  const out = new URLSearchParams();
  const f = view.filters;
  for (const p of f.PatientIds ?? []) out.append("patient", p);
  for (const t of f.TeamIdsFilter ?? []) out.append("team", String(t));
  if (f.StartDateTime) out.set("from", f.StartDateTime);
  if (f.EndDateTime) out.set("to", f.EndDateTime);
  for (const [attribute, chosen] of Object.entries(f.PreliminaryQuestionsSelection ?? {})) {
    for (const id of chosen) out.append(`pq${attribute}`, String(id));
  }
  for (const l of f.Languages ?? []) out.append("caseLang", l);
  for (const r of f.Respondents ?? []) out.append("respondent", r);
  if (view.benchmark) out.set("benchmark", String(view.benchmark));
  if (view.category) out.set("category", String(view.category));
  if (!view.percent) out.set("raw", "1");
  if (view.pie) out.set("pie", "1");
  if (view.cloud) out.set("cloud", "1");
  if (view.language) out.set("lang", view.language);
  return out;
}

/** The link to the same screen with some of the view changed (the tab hash kept by the caller). */
export function viewHref(view: StatisticsView, change: Partial<StatisticsView>): string {
  const query = writeView({ ...view, ...change }).toString();
  return query ? `?${query}` : "?";
}

export function hasFilters(filters: StatisticsFilters): boolean {
  return Object.keys(filters).length > 0;
}

/** Where the screen's downloads post to: a resource route, with the view's filters in its address. */
export function downloadPath(surveyId: number, view: StatisticsView): string {
  const query = writeView(view).toString();
  return `/survey/${surveyId}/statistics/download${query ? `?${query}` : ""}`;
}
