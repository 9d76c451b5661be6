import { useRevalidator } from "@remix-run/react";
import { useCallback, useRef } from "react";
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from "~/domain/idempotency";
import { useTranslation } from "react-i18next";
import { useToast } from "~/components/ui/Toaster";
import { reportNetworkError } from "~/offline/connectivity";

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; type: string; message: string };

/**
 * Calls the survey API from the editor page with the session cookie (same origin). The API checks
 * every permission; this only carries the request.
 */
export async function callApi<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
): Promise<ApiResult<T>> {
  let res: Response;
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (idempotencyKey) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  try {
    res = await fetch(`/api${path}`, {
      method,
      credentials: "same-origin",
      headers,
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
 * The Idempotency-Keys of a page's POSTs (decision 018): a POST whose outcome is unknown (no answer, or a
 * server error) keeps its key, so that sent again unchanged it is applied once; an answer that settles it
 * (success or refusal) lets the key go, and the next such POST is a new write.
 */
export function writeKeys() {
  const unsettled = new Map<string, string>();
  const requestOf = (method: string, path: string, body: unknown) =>
    method === "POST" ? `${path}\n${JSON.stringify(body ?? null)}` : null;
  return {
    keyFor(method: string, path: string, body?: unknown): string | undefined {
      const request = requestOf(method, path, body);
      if (!request) return undefined;
      const key = unsettled.get(request) ?? newIdempotencyKey();
      unsettled.set(request, key);
      return key;
    },
    settle(method: string, path: string, body: unknown, result: { ok: boolean; status?: number }) {
      const request = requestOf(method, path, body);
      const status = result.ok ? 200 : (result.status ?? 0);
      if (request && status > 0 && status < 500) unsettled.delete(request);
    },
  };
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
  const keys = useRef(writeKeys());
  return useCallback(
    async <T = unknown>(method: string, path: string, body?: unknown, success?: string): Promise<ApiResult<T>> => {
      const key = keys.current.keyFor(method, path, body);
      const result = await callApi<T>(method, path, body, key);
      keys.current.settle(method, path, body, result);
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
