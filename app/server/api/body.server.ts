import { attachmentsApi } from "~/contracts/attachments";
import { apiUrl } from "~/contracts/contract";
import type { Context } from "hono";
import { AppError } from "~/domain/errors";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_QUESTION } from "~/domain/uploads";

/** JSON bodies above this are refused; questions and answer options have their own, larger limit. */
export const JSON_BODY_LIMIT = 1_000_000;
/** Questions and answer options may carry an image (up to 2 MB, as a base64 data URL). */
export const IMAGE_BODY_LIMIT = 3_000_000;

/** What the host server may hand the API with a request (Hono's env): the body, already read. */
export interface ApiEnv {
  body?: Uint8Array;
}

/** The most an upload request may carry: five files of the largest size, and room for the form's framing. */
export const UPLOAD_BODY_LIMIT = MAX_ATTACHMENTS_PER_QUESTION * MAX_ATTACHMENT_BYTES + 1_000_000;
export const UPLOAD_PATH = apiUrl(attachmentsApi.upload);

/**
 * The largest body a request to this path may carry; the server refuses one declared larger before reading
 * it. A page's form is a few fields (an image's data URL at most), or files from the fill page without
 * JavaScript.
 */
export function bodyLimitOf(path: string, contentType = ""): number {
  // A patient's link reaches the same endpoints under /l/api (decision 057).
  if (path.startsWith("/l/api/")) return bodyLimitOf(path.slice(2), contentType);
  if (path === UPLOAD_PATH) return UPLOAD_BODY_LIMIT;
  // Questions and answer options carry images; an imported Questionnaire carries its image questions' too;
  // a language's translations may carry a long survey's every text with its intro and outro.
  if (
    /^\/api\/(questions|answer-options)(\/|$)/.test(path) ||
    path === "/api/surveys/fhir-import" ||
    /^\/api\/surveys\/\d+\/translations\//.test(path)
  )
    return IMAGE_BODY_LIMIT;
  if (path.startsWith("/api/")) return JSON_BODY_LIMIT;
  return contentType.toLowerCase().startsWith("multipart/") ? UPLOAD_BODY_LIMIT : IMAGE_BODY_LIMIT;
}

/**
 * The pages whose form, declared over its limit, is still handed to their action (without its body, the load
 * context's `bodyRefused` saying why), so that they answer with themselves rather than the server's plain
 * refusal: the patient's link page (decision 057), whose patient has no other page to go back to.
 */
export const answersRefusedForm = (path: string) => path === "/l/fill";

export function tooLarge(limit: number) {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is too large (at most ${limit} bytes)`);
}

/** True when the declared length already passes the limit: refused before anything is read. */
export function declaredTooLarge(req: Request, limit: number): boolean {
  return Number(req.headers.get("content-length") ?? 0) > limit;
}

/** Reads a body stream, refusing it with 413 once it passes the limit (declared or actual). */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (declaredTooLarge(req, limit)) throw tooLarge(limit);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      // Let go of the rest rather than cancel it: the server reads and drops it after the answer, so the
      // connection answers its next request (server/request-body.js).
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

const decoder = new TextDecoder();
const read = new WeakMap<Request, Promise<Uint8Array>>();

/**
 * The request body's bytes, within the limit, read once per request: an idempotent write reads them to
 * recognise a repeat before its handler reads them again. A body the host server read already (ApiEnv) is
 * taken as it is: building a web stream for a small JSON body costs more than handling the answer.
 */
export function bodyBytes(c: Context, limit = bodyLimitOf(c.req.path)): Promise<Uint8Array> {
  let bytes = read.get(c.req.raw);
  if (!bytes) {
    const given = (c.env as ApiEnv | undefined)?.body;
    if (given) bytes = given.length > limit ? Promise.reject(tooLarge(limit)) : Promise.resolve(given);
    else bytes = readLimited(c.req.raw, limit);
    read.set(c.req.raw, bytes);
  }
  return bytes;
}

/** The request body as text, within the path's limit. */
export async function bodyText(c: Context): Promise<string> {
  return decoder.decode(await bodyBytes(c));
}
