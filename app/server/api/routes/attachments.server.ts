import type { Context } from "hono";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { FILE_NAME_MAX_LENGTH, MAX_ATTACHMENTS_PER_QUESTION } from "~/domain/uploads";
import { blobStream } from "~/server/storage/attachments.server";
import { attachmentLinkSecret, contentDisposition } from "~/server/services/fill/attachment-links.server";
import {
  attachmentLink,
  countAttachments,
  downloadAttachment,
  listAttachments,
} from "~/server/services/fill/attachments-read.server";
import {
  deleteAttachment,
  uploadAttachments,
  type IncomingFile,
} from "~/server/services/fill/attachments-write.server";
import { route, type AnyRoute } from "../route.server";
import { bodyBytes } from "../body.server";
import { idParam, surveyCaller } from "../schemas.server";
import type { ApiDeps } from "../types.server";

const tag = "File attachments";

const secretOf = (deps: ApiDeps) => deps.env.ATTACHMENT_LINK_SECRET ?? attachmentLinkSecret(deps.env.DATA_DIR);

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

/** The files of the multipart field "files". */
async function filesOf(c: Context): Promise<IncomingFile[]> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the files as multipart/form-data in the field files");
  }
  const body = await bodyBytes(c);
  let form: FormData;
  try {
    form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The multipart body cannot be read");
  }
  const entries = form.getAll("files").filter((v): v is File => typeof v !== "string");
  if (entries.length > MAX_ATTACHMENTS_PER_QUESTION * 4)
    throw new AppError("VALIDATION_ERROR", "Too many files at once");
  return Promise.all(
    entries.map(async (f) => ({
      name: f.name.slice(0, FILE_NAME_MAX_LENGTH * 4),
      bytes: new Uint8Array(await f.arrayBuffer()),
    })),
  );
}

const securityHeaders = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cache-Control": "private, no-store",
};

export const attachmentRoutes: AnyRoute[] = [
  route({
    method: "get",
    path: "/file-attachments",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The files attached to one question of a case",
    query: z.object({ questionId: idParam, patientDataId: idParam }),
    response: z.array(FileRowSchema),
    handler: ({ deps, caller, query }) => listAttachments(deps.db, surveyCaller(caller), query),
  }),
  route({
    method: "get",
    path: "/file-attachments/count",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "How many files each question of a case holds",
    query: z.object({ patientDataId: idParam }),
    response: z.array(z.object({ QuestionId: z.number().int(), NumberOfFileAttachment: z.number().int() })),
    handler: ({ deps, caller, query }) => countAttachments(deps.db, surveyCaller(caller), query.patientDataId),
  }),
  route({
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
    handler: async ({ c, deps, caller, query }) => {
      const results = await uploadAttachments(deps.db, deps.attachments, surveyCaller(caller), query, () => filesOf(c));
      const first = results.find((r) => !r.Uploaded);
      if (!first || first.Uploaded) return { Results: results };
      return c.json(
        { Type: first.Type, Error: first.Error, FileName: first.FileName, Message: first.Message, Results: results },
        406,
      );
    },
  }),
  route({
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
    handler: async ({ deps, caller, query, body }) =>
      deleteAttachment(deps.db, deps.attachments, surveyCaller(caller), query, body.fileName),
  }),
  route({
    method: "get",
    path: "/file-attachments/get-sas-blob-url",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "A download link for one file that expires after 10 minutes",
    query: z.object({ surveyFileAttachmentId: idParam }),
    response: z.object({ Url: z.string() }),
    handler: ({ deps, caller, query }) =>
      attachmentLink(deps.db, surveyCaller(caller), query.surveyFileAttachmentId, {
        secret: secretOf(deps),
        baseUrl: `${deps.env.publicUrl}/api`,
      }),
  }),
  route({
    method: "get",
    path: "/file-attachments/download",
    errors: ["FORBIDDEN", "NOT_FOUND"],
    tag,
    public: true,
    summary: "The file a link from get-sas-blob-url names, while the link is valid",
    query: z.object({ token: z.string().max(200) }),
    handler: async ({ c, deps, query }) => {
      const file = await downloadAttachment(deps.db, deps.attachments, secretOf(deps), query.token);
      return c.body(blobStream(file.body.chunks), 200, {
        ...securityHeaders,
        "Content-Type": file.contentType,
        "Content-Disposition": contentDisposition(file.fileName),
        "Content-Length": String(file.body.size),
      });
    },
  }),
];
