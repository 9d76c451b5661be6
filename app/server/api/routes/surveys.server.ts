import { z } from "zod";
import {
  BenchmarkEntrySchema,
  CreateSurveySchema,
  SurveyListSchema,
  SurveySchema,
  UpdateSurveySchema,
} from "~/domain/survey";
import { cloneSurvey } from "~/server/services/survey-clone.server";
import {
  approveSurvey,
  archiveSurvey,
  benchmarkableSurveys,
  changeSurveyStatus,
  deleteSurvey,
  restoreSurvey,
} from "~/server/services/survey-lifecycle.server";
import { createSurvey, getSurvey, listSurveys, updateSurvey } from "~/server/services/surveys.server";
import { route } from "../route.server";
import { idParam, queryBool, surveyCaller, SurveyIdParams } from "../schemas.server";

const tag = "Surveys";

export const surveyRoutes = [
  route({
    method: "get",
    path: "/surveys",
    tag,
    summary: "The surveys the caller may see (archived ones with Archived=true)",
    query: z.object({
      take: z.coerce.number().int().min(0).default(1e9),
      skip: z.coerce.number().int().min(0).default(0),
      filterString: z.string().max(200).optional(),
      Archived: queryBool.default(false),
    }),
    response: SurveyListSchema,
    handler: ({ deps, caller, query }) =>
      listSurveys(deps.db, surveyCaller(caller), {
        take: query.take,
        skip: query.skip,
        filterString: query.filterString,
        archived: query.Archived,
      }),
  }),
  route({
    method: "get",
    path: "/surveys/benchmarkable",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "Surveys that can be compared with the given one (clones of one another)",
    query: z.object({ surveyId: idParam, filterString: z.string().max(200).optional() }),
    response: z.array(BenchmarkEntrySchema),
    handler: ({ deps, caller, query }) =>
      benchmarkableSurveys(deps.db, surveyCaller(caller), query.surveyId, query.filterString),
  }),
  route({
    method: "get",
    path: "/surveys/:id",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "A whole survey: categories, questions, answers, sub-questions, patient form, permissions",
    params: SurveyIdParams,
    response: SurveySchema,
    handler: ({ deps, caller, params }) => getSurvey(deps.db, surveyCaller(caller), params.id),
  }),
  route({
    method: "post",
    path: "/surveys",
    idempotent: true,
    tag,
    summary: "Create a Draft survey (editors)",
    body: CreateSurveySchema.partial({ Title: true }),
    response: SurveySchema,
    status: 201,
    handler: ({ deps, caller, body }) => createSurvey(deps.db, surveyCaller(caller), body ?? {}),
  }),
  route({
    method: "put",
    path: "/surveys/:id",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Change some fields of a Draft survey (editors)",
    params: SurveyIdParams,
    body: UpdateSurveySchema,
    response: SurveySchema,
    handler: ({ deps, caller, params, body }) => updateSurvey(deps.db, surveyCaller(caller), params.id, body),
  }),
  route({
    method: "post",
    path: "/surveys/:id/archive",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Archive a survey (editors)",
    params: SurveyIdParams,
    status: 204,
    handler: async ({ deps, caller, params }) => archiveSurvey(deps.db, surveyCaller(caller), params.id),
  }),
  route({
    method: "post",
    path: "/surveys/:id/archive/restore",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Restore an archived survey to Draft (editors)",
    params: SurveyIdParams,
    status: 204,
    handler: async ({ deps, caller, params }) => restoreSurvey(deps.db, surveyCaller(caller), params.id),
  }),
  route({
    method: "delete",
    path: "/surveys/:id/archive",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Delete an archived survey permanently (editors)",
    params: SurveyIdParams,
    status: 204,
    handler: async ({ deps, caller, params }) => deleteSurvey(deps.db, surveyCaller(caller), params.id),
  }),
  route({
    method: "post",
    path: "/surveys/:id/clone",
    errors: ["SURVEY_NOT_FOUND"],
    idempotent: true,
    tag,
    summary: "Copy a survey's structure into a new Draft (editors)",
    params: SurveyIdParams,
    response: SurveySchema,
    status: 201,
    handler: async ({ deps, caller, params }) => {
      const id = await cloneSurvey(deps.db, surveyCaller(caller), params.id);
      return getSurvey(deps.db, surveyCaller(caller), id);
    },
  }),
  route({
    method: "post",
    path: "/surveys/:id/approve",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Publish a Draft survey (approvers): needs a title and a question",
    params: SurveyIdParams,
    status: 204,
    handler: async ({ deps, caller, params }) => approveSurvey(deps.db, surveyCaller(caller), params.id),
  }),
  route({
    method: "put",
    path: "/surveys/:id/change-status",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Unpublish (newStatusId 1) or close (3) a survey (approvers)",
    params: SurveyIdParams,
    query: z.object({ newStatusId: z.coerce.number().int().min(0).max(5) }),
    status: 204,
    handler: async ({ deps, caller, params, query }) =>
      changeSurveyStatus(deps.db, surveyCaller(caller), params.id, query.newStatusId),
  }),
];
