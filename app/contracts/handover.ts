import { z } from "~/domain/zod";
import { PatientIdSchema } from "~/domain/fill-requests";
import { IdSchema } from "~/domain/id-schema";
import { contract } from "./contract";

const tag = "Hand-over";

/**
 * A staff device handed to the patient (docs/decisions/058-hand-over.md): the patient mode is a flag on the
 * staff member's session. While it is set, every other page and call of that session is refused or answered
 * with the patient's page; only the case's answer endpoints and the end of the mode answer.
 */
export const handoverApi = {
  start: contract({
    method: "post",
    path: "/handover/start",
    errors: [
      "FORBIDDEN",
      "SURVEY_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SURVEY_ALREADY_CLOSED",
    ],
    tag,
    summary:
      "Hands the device over for an Open case: the session answers only that case until the mode ends. Only " +
      "a signed-in session (no bearer token); ReturnHash is the SHA-256 of a secret the device keeps under the PIN",
    body: z
      .object({
        SurveyId: IdSchema,
        PatientId: PatientIdSchema,
        ReturnHash: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .describe("SHA-256, hex, of the return token the device keeps sealed under the PIN"),
      })
      .strict(),
    response: z.object({ SurveyId: z.number().int(), PatientId: z.string(), PatientDataId: z.number().int() }),
  }),
  current: contract({
    method: "get",
    path: "/handover/current",
    tag,
    summary: "The case the session is handed over for, or null",
    response: z.object({ SurveyId: z.number().int(), PatientId: z.string() }).nullable(),
  }),
  end: contract({
    method: "post",
    path: "/handover/end",
    errors: ["FORBIDDEN"],
    tag,
    summary: "Ends the patient mode with the return token the right PIN opened on the device (403 for any other)",
    body: z
      .object({
        ReturnToken: z.string().min(1).max(200),
        Offline: z
          .boolean()
          .optional()
          .describe("The right PIN was typed without a network: the end is sent now (the trail row says so)"),
      })
      .strict(),
    status: 204,
  }),
};
