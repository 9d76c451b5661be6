import type { Context } from "hono";

/**
 * The pages' reads of the API in the same process (decision 001: `api.fetch`, no network hop). A read
 * carries no body, and the API reads only its address, method and headers: it is handed an object with
 * those three instead of a web Request, whose construction (an abort signal, a body's stream machinery) was
 * most of an in-process call's own cost. Its JSON answer is handed back as the text the API wrote, instead
 * of being read again through the Response's stream. A fill page makes six such reads. Writes, and every
 * request from outside, go through web Requests and Responses as before; the bytes answered are the same.
 */
export class InProcessRead {
  readonly method = "GET";
  readonly headers: Headers;
  /** The JSON text the API answered with, when it answered with JSON. */
  answerText: string | undefined;

  constructor(
    readonly url: string,
    headers: Record<string, string>,
  ) {
    this.headers = new Headers(headers);
  }

  /** What the API's router takes: it reads the url, method and headers of a request, nothing else. */
  asRequest(): Request {
    return this as unknown as Request;
  }
}

/** The API's JSON answer (what Hono's c.json writes), its text also handed to an in-process read. */
export function jsonAnswer(c: Context, value: unknown, status: 200 | 201): Response {
  const text = JSON.stringify(value);
  const raw: unknown = c.req.raw;
  if (raw instanceof InProcessRead) raw.answerText = text;
  return c.body(text, status, { "Content-Type": "application/json" });
}
