import { z } from "~/domain/zod";
import { CultureSchema } from "~/domain/user";
import { ContentLanguageSchema } from "~/domain/content-languages";
import {
  ArchivedAttachmentsRequestSchema,
  FreeTextPageSchema,
  StatisticsAttachmentListSchema,
  StatisticsFilterDataSchema,
  StatisticsFiltersSchema,
  StatisticsSchema,
} from "~/domain/statistics";
import { idParam, queryBool } from "./params";
import { contract } from "./contract";

const tag = "Statistics";
const Filters = StatisticsFiltersSchema.default({});
/** The content language of the survey's labels (docs/decisions/056-statistics-languages.md). */
const language = ContentLanguageSchema.optional().describe(
  "The language of the survey's labels (questions, answers, categories, preliminary questions): one the survey " +
    "offers, else (or when left out) its source language. Figures and codes are the same in every language",
);

export const statisticsApi = {
  figures: contract({
    method: "post",
    path: "/statistics/:surveyId",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary:
      "Every question's figures over the survey's closed cases that pass the filters; with benchmarkSurveyId the other survey's figures beside them",
    params: z.object({ surveyId: idParam }),
    query: z.object({
      benchmarkSurveyId: idParam.optional(),
      wordCloud: queryBool
        .default(true)
        .describe("false leaves every WordCloud empty, so the free texts are not read (the page asks when shown)"),
      language,
    }),
    body: Filters,
    response: StatisticsSchema,
  }),
  patientIds: contract({
    method: "post",
    path: "/statistics/:surveyId/patient-ids",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The patient ids of the closed cases that pass the other filters (the survey-id filter's choices)",
    params: z.object({ surveyId: idParam }),
    body: Filters,
    response: z.array(z.string()),
  }),
  csv: contract({
    method: "post",
    path: "/statistics/:surveyId/csv",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary:
      "A zip (named after the survey) of responses.csv, one row per case, codebook.csv, and scripts that read " +
      "the CSV into R, SPSS/PSPP and Stata with labels and missing codes (responses.R, responses.sps, " +
      "responses.do, codebook-variables.csv; responses-lines.csv when a text holds a line break); streamed. " +
      "In the caller's language (separator, decimal mark, the export's own words), or in culture's when given; " +
      "the survey's labels in `language`, the codes the same in every language",
    params: z.object({ surveyId: idParam }),
    // The page's language: one person may work in English in one browser and in German in another.
    query: z.object({ culture: CultureSchema.optional(), language }),
    body: Filters,
  }),
  freeText: contract({
    method: "post",
    path: "/statistics/:surveyId/free-text/:questionId",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "A page of a free-text question's answers, newest first, optionally those containing filterString",
    params: z.object({ surveyId: idParam, questionId: idParam }),
    query: z.object({
      take: z.coerce.number().int().min(0).max(10_000).default(15),
      skip: z.coerce.number().int().min(0).default(0),
      filterString: z.string().max(200).optional(),
    }),
    body: Filters,
    response: FreeTextPageSchema,
  }),
  filterData: contract({
    method: "get",
    path: "/statisticsFilterData",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary:
      "What the statistics can be filtered by: teams, the survey's preliminary questions, languages, who answered",
    query: z.object({ surveyId: idParam, language }),
    response: StatisticsFilterDataSchema,
  }),
  attachments: contract({
    method: "post",
    path: "/file-attachments/get-by-question-id/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The files attached to a question in the closed cases that pass the filters",
    params: z.object({ id: idParam }),
    query: z.object({ surveyId: idParam }),
    body: Filters,
    response: StatisticsAttachmentListSchema,
  }),
  archived: contract({
    method: "post",
    path: "/file-attachments/get-archived",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The named files of one question as a zip (safe names, each under its patient id); streamed",
    body: ArchivedAttachmentsRequestSchema,
  }),
};
