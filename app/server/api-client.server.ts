import { isDeepStrictEqual } from "node:util";
import { apiUrl, responseSchemaOf, type AnswerOf, type CallArgs, type Contract } from "~/contracts/contract";
import { isErrorEnvelope, type ErrorEnvelope } from "~/domain/errors";
import { IDEMPOTENCY_HEADER } from "~/domain/idempotency";
import { InProcessRead } from "./api/in-process.server";
import { LINK_COOKIE } from "./api/link-routes.server";
import { getContext } from "./context.server";
import { forgetRequestReads } from "./log.server";

/** A refusal from the survey API, with the catalogue's type. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
  ) {
    super(`${status} ${envelope.Type}: ${envelope.Error}`);
    this.name = "ApiError";
  }
  get type() {
    return this.envelope.Type;
  }
}

interface Options {
  /** A multipart body (files), sent as it is instead of the request's body. */
  form?: FormData;
  /** Sent as the Idempotency-Key header: a write repeated with the same key is applied once. */
  idempotencyKey?: string;
  /** The JSON body's media type, one of those the endpoint takes (application/json when not said). */
  contentType?: string;
}

type Args<C extends Contract> = CallArgs<C, Options>;

/**
 * The one way the pages reach the survey API: with the session's access token, in-process by
 * default (no network hop), over HTTP when SURVEY_API_URL is set.
 */
export function apiClient(accessToken: string) {
  return clientOf({ authorization: `Bearer ${accessToken}` }, "");
}

/**
 * A patient's link reaching its case's endpoints under /l/api (docs/decisions/057-patient-links.md), with its
 * cookie as the link's pages were sent it: the link's page and its form posts answer through it.
 */
export function linkApiClient(session: string) {
  const origin = new URL(getContext().env.publicUrl).origin;
  // The API's own check against writes from other sites: the page's post was checked as it came in.
  return clientOf({ cookie: `${LINK_COOKIE}=${session}`, origin }, "/l");
}

function clientOf(auth: Record<string, string>, base: string) {
  const { env, api } = getContext();

  /** The answer, and its JSON text when the API handed it over in-process. */
  async function send(
    c: Contract,
    request: { params?: unknown; query?: unknown; body?: unknown } = {},
    opts: Options = {},
  ): Promise<{ res: Response; text?: string }> {
    const method = c.method.toUpperCase();
    const headers: Record<string, string> = { ...auth, accept: "application/json" };
    if (opts.idempotencyKey) headers[IDEMPOTENCY_HEADER] = opts.idempotencyKey;
    let body: string | FormData | undefined;
    if (opts.form) body = opts.form;
    else if (request.body !== undefined) {
      headers["content-type"] = opts.contentType ?? "application/json";
      body = JSON.stringify(request.body);
    }
    const target = base + apiUrl(c, request);
    const init = { method, headers, body };
    // What this request read is read again after a write, also what the write itself read on its way.
    const write = method !== "GET";
    if (write) forgetRequestReads();
    try {
      let res: Response;
      let read: InProcessRead | undefined;
      if (env.SURVEY_API_URL) {
        const remote = env.SURVEY_API_URL.replace(/\/$/, "");
        // A link's calls go to the same server's /l/api, beside its /api.
        res = await fetch(
          base ? `${remote.replace(/\/api$/, "")}${target}` : `${remote}${target.replace(/^\/api/, "")}`,
          init,
        );
      } else if (!write && body === undefined) {
        read = new InProcessRead(`http://localhost${target}`, headers);
        res = await api.fetch(read.asRequest());
      } else {
        res = await api.request(target, init);
      }
      if (!res.ok) {
        const payload: unknown = await res.json().catch(() => null);
        const envelope = isErrorEnvelope(payload) ? payload : { Type: "INTERNAL_ERROR", Error: res.statusText };
        throw new ApiError(res.status, envelope);
      }
      return { res, text: read?.answerText };
    } finally {
      if (write) forgetRequestReads();
    }
  }

  /** Calls an endpoint by its contract; the answer is typed by it. */
  async function call<C extends Contract>(c: C, ...[request, options]: Args<C>): Promise<AnswerOf<C>> {
    const { res, text } = await send(c, request, options);
    if (res.status === 204) return undefined as AnswerOf<C>;
    const data: unknown = text === undefined ? await res.json() : JSON.parse(text);
    const schema = responseSchemaOf(c, res.status);
    if (!schema) return data as AnswerOf<C>;
    // An answer from another process is checked against its schema. In-process the API is this build, its
    // answers typed by the same schemas: production takes them as they are (the fill page spent 4 % of its
    // time re-checking the survey). The access walk checks every endpoint's answers against its declared
    // schema; a development server still parses and fails if parsing would change an answer.
    if (env.SURVEY_API_URL) return schema.parse(data) as AnswerOf<C>;
    if (env.NODE_ENV === "production") return data as AnswerOf<C>;
    const parsed = schema.parse(data);
    if (!isDeepStrictEqual(parsed, data))
      throw new Error(`The answer to ${c.method} ${c.path} is not its schema's shape`);
    return parsed as AnswerOf<C>;
  }

  return {
    call,
    /** The API's answer as it is (a file or an archive to pass on); refusals throw ApiError as above. */
    raw: async <C extends Contract>(c: C, ...[request, options]: Args<C>) => (await send(c, request, options)).res,
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
