import { useRevalidator } from "@remix-run/react";
import { useCallback, useRef } from "react";
import { callApi, refusalKey, type ApiResult } from "~/api-client";
import { newIdempotencyKey } from "~/domain/idempotency";
import { useTranslation } from "react-i18next";
import { useToast } from "~/components/ui/Toaster";

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
