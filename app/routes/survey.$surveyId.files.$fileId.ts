import { attachmentsApi } from "~/contracts/attachments";
import { type LoaderFunctionArgs } from "@remix-run/node";
import { positiveId } from "~/domain/ids";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { refused } from "~/server/refusals.server";
import { redirect } from "~/server/responses.server";

/**
 * A file attached to a case, by the link its name is on the fill page: a plain GET, so it works without
 * JavaScript. The API checks that the person may read the case and hands out its expiring download link.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = positiveId(params.surveyId);
  const fileId = positiveId(params.fileId);
  if (surveyId === null) throw redirect("/surveys");
  const start = `/survey/${surveyId}`;
  if (fileId === null) throw redirect(start);
  try {
    const link = await apiClient(user.accessToken).call(attachmentsApi.link, {
      query: { surveyFileAttachmentId: fileId },
    });
    return redirect(link.Url);
  } catch (error) {
    return refused(request, error, { back: start, notFound: start });
  }
}
