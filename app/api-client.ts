import { apiUrl, type AnswerOf, type CallArgs, type Contract, type RequestOf } from "~/contracts/contract";
import { errorMessageKey } from "~/domain/error-messages";
import { IDEMPOTENCY_HEADER } from "~/domain/idempotency";
import { reportNetworkError } from "~/offline/connectivity";

/**
 * The browser's client of the survey API: same origin, with the session cookie. The API checks every
 * permission; this only carries the request and reads the answer into one shape.
 */

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; type: string; message: string };

/** Bytes of request bodies sent to outlive the page that may be on their way at once (the browser: 64 KB). */
const KEEPALIVE_BUDGET = 48 * 1024;
let keepaliveBytes = 0;

interface CallOptions {
  /** Sent as the Idempotency-Key header: a write repeated with the same key is applied once. */
  idempotencyKey?: string;
  /** The request outlives the page (a reload, a closed tab) while its body fits the budget. */
  keepalive?: boolean;
  /** A multipart body (files), sent as it is instead of the request's body. */
  form?: FormData;
  /** Put before the API's path: "/l" for a patient's link, whose API is under /l/api (decision 057). */
  base?: string;
}

/**
 * Calls an endpoint of the survey API by its contract from a page, with the session cookie (same origin).
 * The API checks every permission; this only carries the request and reads the answer into one shape: the
 * answer typed by the contract, or the refusal's status, type and message (network trouble as NETWORK).
 */
export async function callApi<C extends Contract>(
  c: C,
  ...[request, options = {}]: CallArgs<C, CallOptions>
): Promise<ApiResult<AnswerOf<C>>> {
  const res = await sendApi(c, request, options);
  if (!res) return { ok: false, status: 0, type: "NETWORK", message: "network" };
  if (res.status === 204) return { ok: true, data: undefined as AnswerOf<C> };
  const payload = (await res.json().catch(() => null)) as { Type?: string; Error?: string } | null;
  if (!res.ok)
    return {
      ok: false,
      status: res.status,
      type: payload?.Type ?? "UNKNOWN",
      message: payload?.Error ?? res.statusText,
    };
  return { ok: true, data: payload as AnswerOf<C> };
}

/**
 * The API's answer to a request as it is (a file, or an answer whose refusal carries more than the
 * envelope), or null when the network failed (reported to the connectivity state).
 */
export async function sendApi<C extends Contract>(
  c: C,
  request: RequestOf<C> | undefined,
  options: CallOptions = {},
): Promise<Response | null> {
  const body = (request as { body?: unknown } | undefined)?.body;
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined && !options.form) headers["content-type"] = "application/json";
  if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
  const text = options.form ? undefined : body === undefined ? undefined : JSON.stringify(body);
  const size = new Blob([text ?? ""]).size;
  // Outlives the page (a reload, a closed tab). The browser refuses such a request once 64 KB of them are
  // on their way, and a refusal would look like a lost network: beyond a budget a request goes as usual.
  const keepalive = Boolean(options.keepalive) && !options.form && keepaliveBytes + size <= KEEPALIVE_BUDGET;
  if (keepalive) keepaliveBytes += size;
  try {
    return await fetch(`${options.base ?? ""}${apiUrl(c, request)}`, {
      method: c.method.toUpperCase(),
      credentials: "same-origin",
      headers,
      body: options.form ?? text,
      keepalive,
    });
  } catch {
    reportNetworkError();
    return null;
  } finally {
    if (keepalive) keepaliveBytes -= size;
  }
}

/** The locale key for a refusal, as section 8 words it (the common map of error types). */
export function refusalKey(result: { status: number; type: string }): string {
  return result.type === "NETWORK" ? "errors.network" : errorMessageKey(result);
}
