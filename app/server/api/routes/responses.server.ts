import { responsesApi as api } from "~/contracts/responses";
import { writeAnswer } from "~/server/services/fill/answer-write.server";
import {
  listAttributeResponses,
  listQuestionResponses,
  writeAttributeResponse,
} from "~/server/services/fill/responses.server";
import { alias, route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";

const answerPreliminary = route(api.answerPreliminary, ({ deps, caller, body }) =>
  writeAttributeResponse(deps.db, surveyCaller(caller), body),
);
const preliminaryAnswers = route(api.preliminaryAnswers, ({ deps, caller, query }) =>
  listAttributeResponses(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
);
const answers = route(api.answers, ({ deps, caller, query }) =>
  listQuestionResponses(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
);

export const responseRoutes: AnyRoute[] = [
  alias(answerPreliminary, "/attribute-responses/"),
  answerPreliminary,
  alias(preliminaryAnswers, "/attribute-responses/"),
  preliminaryAnswers,
  route(api.singleSelection, ({ deps, caller, body }) =>
    writeAnswer(deps.db, surveyCaller(caller), body, { kind: "single", optionId: body.AnswerOptionId }),
  ),
  route(api.multipleSelection, ({ deps, caller, body }) =>
    writeAnswer(deps.db, surveyCaller(caller), body, { kind: "multiple", optionIds: body.AnswerOptionIds }),
  ),
  route(api.freeText, ({ deps, caller, body }) =>
    writeAnswer(deps.db, surveyCaller(caller), body, { kind: "text", text: body.TextResponse }),
  ),
  route(api.dateTime, ({ deps, caller, body }) =>
    writeAnswer(deps.db, surveyCaller(caller), body, { kind: "dateTime", value: body.DateTimeResponse }),
  ),
  route(api.numerical, ({ deps, caller, body }) =>
    writeAnswer(deps.db, surveyCaller(caller), body, { kind: "number", value: body.NumericalResponse }),
  ),
  route(api.removeAnswer, ({ deps, caller, body }) =>
    writeAnswer(deps.db, surveyCaller(caller), body, { kind: "delete" }),
  ),
  alias(answers, "/question-responses/"),
  answers,
];
