import { z } from "~/domain/zod";
import { FILE_NAME_MAX_LENGTH } from "~/domain/uploads";
import { idParam } from "./params";
import { contract } from "./contract";

const tag = "File attachments";
/** Who uploads: accepted for compatibility with the specification's query; the caller is who signed in. */
const owner = { ssiUserDataId: idParam.optional(), userId: z.string().max(200).optional() };

const FileRowSchema = z
  .object({ Id: z.number().int(), FileName: z.string(), FileExtension: z.string() })
  .meta({ id: "FileAttachment" });

const UploadResultSchema = z
  .object({
    FileName: z.string(),
    Uploaded: z.boolean(),
    Id: z.number().int().optional(),
    FileExtension: z.string().optional(),
    Type: z.string().optional().describe("SURVEY_ATTACHMENTS_* when refused"),
    Error: z.string().optional().describe("The same key, as the uploadErrors messages are keyed"),
    Message: z.string().optional(),
  })
  .meta({ id: "UploadResult" });

export const attachmentsApi = {
  list: contract({
    method: "get",
    path: "/file-attachments",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The files attached to one question of a case",
    query: z.object({ questionId: idParam, patientDataId: idParam }),
    response: z.array(FileRowSchema),
  }),
  count: contract({
    method: "get",
    path: "/file-attachments/count",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "How many files each question of a case holds",
    query: z.object({ patientDataId: idParam }),
    response: z.array(z.object({ QuestionId: z.number().int(), NumberOfFileAttachment: z.number().int() })),
  }),
  upload: contract({
    method: "post",
    path: "/file-attachments/upload",
    errors: [
      "SURVEY_NOT_FOUND",
      "NOT_FOUND",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_ALREADY_CLOSED",
      "SURVEY_ATTACHMENTS_TOO_MANY",
      "SURVEY_ATTACHMENTS_NOT_ALLOWED",
      "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
      "SURVEY_ATTACHMENTS_CONTENT_MISMATCH",
      "SURVEY_ATTACHMENTS_TOO_LARGE",
      "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME",
    ],
    idempotent: true,
    tag,
    summary:
      "Attach files (multipart field files) to a question of an Open case. 200 when all were stored; 406 with the first refusal's Type, Error and FileName when any was refused (the others are stored); Results lists each file",
    query: z.object({ questionId: idParam, patientDataId: idParam, surveyId: idParam, ...owner }),
    response: z.object({ Results: z.array(UploadResultSchema) }),
  }),
  remove: contract({
    method: "delete",
    path: "/file-attachments/delete",
    errors: [
      "SURVEY_NOT_FOUND",
      "NOT_FOUND",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_ALREADY_CLOSED",
    ],
    tag,
    summary: "Remove a file, named by fileName in the body, from a question of an Open case",
    query: z.object({ questionId: idParam, patientDataId: idParam, ...owner }),
    body: z.object({
      fileName: z
        .string()
        .min(1)
        .max(FILE_NAME_MAX_LENGTH * 4),
    }),
    status: 204,
  }),
  link: contract({
    method: "get",
    path: "/file-attachments/get-sas-blob-url",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "A download link for one file that expires after 10 minutes",
    query: z.object({ surveyFileAttachmentId: idParam }),
    response: z.object({ Url: z.string() }),
  }),
  download: contract({
    method: "get",
    path: "/file-attachments/download",
    errors: ["FORBIDDEN", "NOT_FOUND"],
    tag,
    public: true,
    summary: "The file a link from get-sas-blob-url names, while the link is valid",
    query: z.object({ token: z.string().max(200) }),
  }),
};
