import { answerRequest, type AnswerValue } from "~/domain/answers";
import { errorMessageKey } from "~/domain/error-messages";
import { IDEMPOTENCY_HEADER } from "~/domain/idempotency";
import type { Question } from "~/domain/survey";
import { reportNetworkError } from "~/offline/connectivity";

/**
 * The browser's client of the survey API: same origin, with the session cookie. The API checks every
 * permission; this only carries the request and reads the answer into one shape.
 */

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; type: string; message: string };

/** Bytes of request bodies sent to outlive the page that may be on their way at once (the browser: 64 KB). */
const KEEPALIVE_BUDGET = 48 * 1024;
let keepaliveBytes = 0;

/**
 * Calls the survey API from a page with the session cookie (same origin). The API checks every
 * permission; this only carries the request.
 */
export async function callApi<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
  options: { keepalive?: boolean } = {},
): Promise<ApiResult<T>> {
  let res: Response;
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (idempotencyKey) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  const text = body === undefined ? undefined : JSON.stringify(body);
  const size = new Blob([text ?? ""]).size;
  // Outlives the page (a reload, a closed tab). The browser refuses such a request once 64 KB of them are
  // on their way, and a refusal would look like a lost network: beyond a budget a request goes as usual.
  const keepalive = Boolean(options.keepalive) && keepaliveBytes + size <= KEEPALIVE_BUDGET;
  if (keepalive) keepaliveBytes += size;
  try {
    res = await fetch(`/api${path}`, { method, credentials: "same-origin", headers, body: text, keepalive });
  } catch {
    reportNetworkError();
    return { ok: false, status: 0, type: "NETWORK", message: "network" };
  } finally {
    if (keepalive) keepaliveBytes -= size;
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

/** The locale key for a refusal, as section 8 words it (the common map of error types). */
export function refusalKey(result: { status: number; type: string }): string {
  return result.type === "NETWORK" ? "errors.network" : errorMessageKey(result);
}

export interface AnswerSink {
  /** Persists one answer (undefined deletes it); resolves to the API's outcome. */
  save: (question: Question, value: AnswerValue | undefined) => Promise<ApiResult<unknown>>;
  /** Whether the answers now go to this device (offline) rather than the server. */
  isLocal?: () => boolean;
}

/**
 * The live sink: the survey API, with the session cookie. Preview uses a sink that stores nothing. Each
 * save outlives the page, so that one on its way when the page is left or reloaded still arrives.
 */
export function apiSink(ids: { PatientId: string; SurveyId: number }): AnswerSink {
  return {
    save: (question, value) => {
      const request = value ? answerRequest(question, value, ids) : null;
      return request
        ? callApi("POST", request.path, request.body, undefined, { keepalive: true })
        : callApi("DELETE", "/question-responses/question", { ...ids, QuestionId: question.Id }, undefined, {
            keepalive: true,
          });
    },
  };
}

export const previewSink: AnswerSink = { save: async () => ({ ok: true, data: undefined }) };
