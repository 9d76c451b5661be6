import { useRevalidator } from "@remix-run/react";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "~/components/ui/Toaster";
import { reportNetworkError } from "~/offline/connectivity";

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; type: string; message: string };

/**
 * Calls the survey API from the editor page with the session cookie (same origin). The API checks
 * every permission; this only carries the request.
 */
export async function callApi<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    reportNetworkError();
    return { ok: false, status: 0, type: "NETWORK", message: "network" };
  }
  if (res.status === 204) return { ok: true, data: undefined as T };
  const payload = (await res.json().catch(() => null)) as { Type?: string; Error?: string } | null;
  if (!res.ok)
    return {
      ok: false,
      status: res.status,
      type: payload?.Type ?? "UNKNOWN",
      message: payload?.Error ?? res.statusText,
    };
  return { ok: true, data: payload as T };
}

/** The locale key for a refusal, as section 8 words it. */
export function refusalKey(result: { status: number; type: string }): string {
  if (result.type === "NETWORK") return "errors.network";
  if (result.type === "SURVEY_EXISTING_QUESTION_RESPONSE") return "errors.existingResponses";
  if (result.type === "SURVEY_INVALID_STATUS") return "errors.invalidStatus";
  if (result.status >= 500) return "errors.server";
  return "errors.validation";
}

/**
 * One editor change: call the API; on success reload the page's data (and optionally say so); on a
 * refusal show its message. 401 and 403 go to their pages. Resolves to the outcome so callers can
 * revert what they showed optimistically.
 */
export function useEditorMutation() {
  const revalidator = useRevalidator();
  const toast = useToast();
  const { t } = useTranslation();
  return useCallback(
    async <T = unknown>(method: string, path: string, body?: unknown, success?: string): Promise<ApiResult<T>> => {
      const result = await callApi<T>(method, path, body);
      if (result.ok) {
        revalidator.revalidate();
        if (success) toast("success", t(success));
      } else if (result.status === 401) {
        window.location.assign("/401");
      } else if (result.status === 403) {
        window.location.assign("/403");
      } else {
        toast("error", t(refusalKey(result)));
      }
      return result;
    },
    [revalidator, toast, t],
  );
}
