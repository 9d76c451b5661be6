import { useRevalidator } from "@remix-run/react";
import { useCallback, useRef } from "react";
import { callApi, type ApiResult } from "~/api-client";
import { apiUrl, type AnswerOf, type CallArgs, type Contract, type RequestOf } from "~/contracts/contract";
import { newIdempotencyKey } from "~/domain/idempotency";
import { useTranslation } from "~/texts";
import { useToast } from "~/components/ui/Toaster";
import { useRefusal, type Refusal, type RefusalOptions } from "~/components/ui/useRefusal";

/** For a dialog that shows a refusal beside its fields: said there, not in a toast as well. */
export const IN_PLACE: RefusalOptions = { toast: false };

/** What an editor change came to: the API's answer, and for a refusal its words (none when a page opens). */
export type EditorOutcome<T> = { ok: true; data: T } | (Refusal & { words: string | null });

/**
 * The Idempotency-Keys of a page's POSTs (decision 018): a POST whose outcome is unknown (no answer, or a
 * server error) keeps its key, so that sent again unchanged it is applied once; an answer that settles it
 * (success or refusal) lets the key go, and the next such POST is a new write.
 */
export function writeKeys() {
  const unsettled = new Map<string, string>();
  const requestOf = (c: Contract, request: { params?: unknown; query?: unknown; body?: unknown } = {}) =>
    c.method === "post" ? `${apiUrl(c, request)}\n${JSON.stringify(request.body ?? null)}` : null;
  return {
    keyFor(c: Contract, sent?: { params?: unknown; query?: unknown; body?: unknown }): string | undefined {
      const request = requestOf(c, sent);
      if (!request) return undefined;
      const key = unsettled.get(request) ?? newIdempotencyKey();
      unsettled.set(request, key);
      return key;
    },
    settle(c: Contract, sent: { body?: unknown } | undefined, result: { ok: boolean; status?: number }) {
      const request = requestOf(c, sent);
      const status = result.ok ? 200 : (result.status ?? 0);
      if (request && status > 0 && status < 500) unsettled.delete(request);
    },
  };
}

/**
 * One editor change: call the API; on success reload the page's data (and optionally say so); on a
 * refusal do what every page does (useRefusal: 401 and 403 open their pages, the rest is said in a toast,
 * or with `{ toast: false }` only returned, for a dialog that says it in place, once). Resolves to the
 * outcome so callers can revert what they showed optimistically.
 */
export function useEditorMutation() {
  const revalidator = useRevalidator();
  const toast = useToast();
  const { t } = useTranslation();
  const refuse = useRefusal();
  const keys = useRef(writeKeys());
  return useCallback(
    async <C extends Contract>(
      c: C,
      request: RequestOf<C>,
      success?: string,
      refusal?: RefusalOptions,
    ): Promise<EditorOutcome<AnswerOf<C>>> => {
      const idempotencyKey = keys.current.keyFor(c, request);
      const result: ApiResult<AnswerOf<C>> = await callApi(
        c,
        ...([request, { idempotencyKey }] as CallArgs<C, object>),
      );
      keys.current.settle(c, request, result);
      if (!result.ok) {
        // The survey left Draft elsewhere meanwhile (published or archived in another tab): the page reloads
        // its data and shows the survey as it is now, read-only. What was typed stays where it was typed.
        if (result.type === "SURVEY_INVALID_STATUS") revalidator.revalidate();
        return { ...result, words: refuse(result, refusal) };
      }
      revalidator.revalidate();
      if (success) toast("success", t(success));
      return result;
    },
    [revalidator, toast, t, refuse],
  );
}
