import { z } from "~/domain/zod";
import { ContentLanguageSchema, PutTranslationsSchema } from "~/domain/content-languages";
import { SurveySchema } from "~/domain/survey";
import { idParam } from "./params";
import { contract } from "./contract";

const tag = "Surveys";

export const translationsApi = {
  put: contract({
    method: "put",
    path: "/surveys/:id/translations/:language",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Translate texts of a Draft survey into one of its offered languages (editors); an empty Text removes one",
    params: z.object({ id: idParam, language: ContentLanguageSchema }),
    body: PutTranslationsSchema,
    response: SurveySchema,
  }),
};
