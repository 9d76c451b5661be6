import { attachmentsApi } from "~/contracts/attachments";
import type { Context } from "hono";
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
import { surveyCaller } from "../schemas.server";
import type { ApiDeps } from "../types.server";

const secretOf = (deps: ApiDeps) => deps.env.ATTACHMENT_LINK_SECRET ?? attachmentLinkSecret(deps.env.DATA_DIR);

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
  route(attachmentsApi.list, ({ deps, caller, query }) => listAttachments(deps.db, surveyCaller(caller), query)),
  route(attachmentsApi.count, ({ deps, caller, query }) =>
    countAttachments(deps.db, surveyCaller(caller), query.patientDataId),
  ),
  route(attachmentsApi.upload, async ({ c, deps, caller, query }) => {
    const results = await uploadAttachments(deps.db, deps.attachments, surveyCaller(caller), query, () => filesOf(c));
    const first = results.find((r) => !r.Uploaded);
    if (!first || first.Uploaded) return { Results: results };
    return c.json(
      { Type: first.Type, Error: first.Error, FileName: first.FileName, Message: first.Message, Results: results },
      406,
    );
  }),
  route(attachmentsApi.remove, async ({ deps, caller, query, body }) =>
    deleteAttachment(deps.db, deps.attachments, surveyCaller(caller), query, body.fileName),
  ),
  route(attachmentsApi.link, ({ deps, caller, query }) =>
    attachmentLink(deps.db, surveyCaller(caller), query.surveyFileAttachmentId, {
      secret: secretOf(deps),
      baseUrl: `${deps.env.publicUrl}/api`,
    }),
  ),
  route(attachmentsApi.download, async ({ c, deps, query }) => {
    const file = await downloadAttachment(deps.db, deps.attachments, secretOf(deps), query.token);
    return c.body(blobStream(file.body.chunks), 200, {
      ...securityHeaders,
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.fileName),
      "Content-Length": String(file.body.size),
    });
  }),
];
