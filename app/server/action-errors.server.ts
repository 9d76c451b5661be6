import { redirect } from "@remix-run/node";
import { ApiError } from "./api-client.server";
import { setFlash } from "./flash.server";

/** The locale key that explains a failed API call (section 8). */
export function errorKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.type === "SURVEY_EXISTING_QUESTION_RESPONSE") return "errors.existingResponses";
    if (error.type === "SURVEY_INVALID_STATUS") return "errors.invalidStatus";
    if (error.status >= 500) return "errors.server";
    return "errors.validation";
  }
  return "errors.unexpected";
}

/**
 * What an action does when the API refused: 401 and 403 go to their pages; anything else goes back to
 * `to` with a translated error notice.
 */
export async function failBack(request: Request, error: unknown, to: string): Promise<never> {
  if (error instanceof ApiError && error.status === 401) throw redirect("/401");
  if (error instanceof ApiError && error.status === 403) throw redirect("/403");
  if (!(error instanceof ApiError)) throw error;
  throw redirect(to, { headers: { "Set-Cookie": await setFlash(request, { kind: "error", key: errorKey(error) }) } });
}
