import type { Context } from "hono";
import { AppError } from "~/domain/errors";
import { isCrossSiteWrite } from "~/server/auth/same-origin.server";
import { linkCallerOf } from "~/server/services/links/open.server";
import type { LinkScope } from "~/server/services/links/scope.server";
import type { AnyRoute, RouteInput } from "./route.server";
import type { ApiDeps, Caller } from "./types.server";

/**
 * A patient's link as a caller of the API (docs/decisions/057-patient-links.md): under /l/api, with the
 * cookie its opening set (path /l), and only the endpoints that answering its one case needs. Each of them
 * must name the link's own case (or its survey); anything else is refused, and nothing else is mounted there.
 */

export const LINK_COOKIE = "ssi_link";
export const LINK_COOKIE_PATH = "/l";
export const LINK_API_BASE = "/l/api";

type Input = Pick<RouteInput<unknown, unknown, unknown>, "params" | "query" | "body">;
/** The case a scope reaches: a link's, or a hand-over's (decision 058). */
export type CaseScope = Pick<LinkScope, "surveyId" | "patientId" | "patientDataId">;
export type Check = (input: Input, scope: CaseScope) => boolean;

export const obj = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});
const ofSurvey: Check = (i, s) => obj(i.params).id === s.surveyId;
export const caseQuery: Check = (i, s) =>
  obj(i.query).surveyId === s.surveyId && obj(i.query).patientId === s.patientId;
export const caseBody: Check = (i, s) => obj(i.body).SurveyId === s.surveyId && obj(i.body).PatientId === s.patientId;
const caseFiles: Check = (i, s) => obj(i.query).patientDataId === s.patientDataId;
const uploadTo: Check = (i, s) => caseFiles(i, s) && obj(i.query).surveyId === s.surveyId;
// The file's case is checked where it is looked up (attachments-read.server.ts).
const anyFile: Check = () => true;

/** "METHOD /path" of each endpoint a link may call, with its check that the request names the link's case. */
export const linkEndpoints: Record<string, Check> = {
  "GET /surveys/:id": ofSurvey,
  "GET /patients": caseQuery,
  "POST /patients/close": caseQuery,
  // The patient may switch among the survey's languages, as staff may while filling (decision 055).
  "POST /patients/language": caseQuery,
  // The preliminary questions, where the survey lets the patient answer them (decision 058; the service checks).
  "GET /attribute-responses": caseQuery,
  "GET /attribute-responses/": caseQuery,
  "POST /attribute-responses": caseBody,
  "POST /attribute-responses/": caseBody,
  "GET /question-responses": caseQuery,
  "GET /question-responses/": caseQuery,
  "POST /question-responses/single-selection": caseBody,
  "POST /question-responses/multiple-selection": caseBody,
  "POST /question-responses/free-text": caseBody,
  "POST /question-responses/date-time": caseBody,
  "POST /question-responses/numerical": caseBody,
  "DELETE /question-responses/question": caseBody,
  "GET /file-attachments": caseFiles,
  "GET /file-attachments/count": caseFiles,
  "POST /file-attachments/upload": uploadTo,
  "DELETE /file-attachments/delete": caseFiles,
  "GET /file-attachments/get-sas-blob-url": anyFile,
};

const keyOf = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`;

/** The API's routes as a link's caller reaches them: only those above, each refusing another case. */
export function linkRoutes(routes: AnyRoute[]): AnyRoute[] {
  return routes
    .filter((r) => !r.public && keyOf(r) in linkEndpoints)
    .map((r) => {
      const check = linkEndpoints[keyOf(r)]!;
      return {
        ...r,
        // Ids only: /l/api/surveys/benchmarkable is no survey of the link's (it is no endpoint there at all).
        path: r.path.replace(/:(\w+)/g, ":$1{[0-9]+}"),
        handler: (input: RouteInput<unknown, unknown, unknown> & { caller: Caller }) => {
          if (!input.caller.link || !check(input, input.caller.link)) {
            throw new AppError("FORBIDDEN", "The link reaches only its own case");
          }
          return r.handler(input);
        },
      };
    });
}

/** The value of the link's cookie in a Cookie header, if any. */
export function linkCookieOf(header: string | undefined | null): string | null {
  for (const part of (header ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === LINK_COOKIE) return rest.join("=");
  }
  return null;
}

/** The caller of a request under /l/api: the link its cookie stands for, or 401. */
export function createLinkAuthenticator(deps: ApiDeps) {
  return async function authenticate(c: Context): Promise<Caller> {
    const session = linkCookieOf(c.req.header("cookie"));
    const scope = session ? await linkCallerOf(deps.db, session) : null;
    if (!scope) throw new AppError("UNAUTHORIZED", "The link is not valid, or no longer");
    if (isCrossSiteWrite(c.req.raw, deps.env.publicUrl)) throw new AppError("FORBIDDEN", "Cross-site request refused");
    return {
      identity: {
        sub: `link:${scope.linkId}`,
        fullName: "",
        institute: "",
        roles: [],
        teams: [],
        hasAcceptedTos: true,
      },
      surveyUserDataId: 0,
      roles: [],
      teamIds: [],
      teams: [],
      culture: null,
      link: scope,
    };
  };
}
