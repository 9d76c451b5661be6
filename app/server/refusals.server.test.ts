import { describe, expect, it } from "vitest";
import { AppError } from "~/domain/errors";
import { ApiError } from "./api-client.server";
import { takeFlash } from "./flash.server";
import { notFound, refusalMessage, refused } from "./refusals.server";

const request = new Request("http://localhost/survey/7/fill/P_1");
const apiError = (status: number, Type: string) => new ApiError(status, { Type, Error: "from the API" });

/** What refused() threw: a redirect (its target and the flash's key) or a page's error answer. */
async function outcome(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (thrown) {
    if (thrown instanceof Response) {
      const cookie = thrown.headers.get("Set-Cookie");
      const flash = cookie
        ? (await takeFlash(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } }))).flash
        : null;
      return { to: thrown.headers.get("Location"), key: flash?.key ?? null };
    }
    // A thrown data() is the page's error answer: Remix renders it in the error boundary.
    if (thrown && typeof thrown === "object" && "type" in thrown && thrown.type === "DataWithResponseInit") {
      const answer = thrown as unknown as { data: unknown; init: { status: number } };
      return { status: answer.init.status, data: answer.data };
    }
    return { thrown };
  }
  return { returned: true };
}

describe("refused", () => {
  it("sends 401 to the sign-in page and 403 to the forbidden page, whatever the way says", async () => {
    const way = { back: "/surveys", notFound: "/surveys" };
    expect(await outcome(() => refused(request, apiError(401, "UNAUTHORIZED"), way))).toEqual({
      to: "/401",
      key: null,
    });
    expect(await outcome(() => refused(request, apiError(403, "FORBIDDEN"), way))).toEqual({ to: "/403", key: null });
  });

  it("sends a 404 to its not-found place with the type's message, or shows the not-found page", async () => {
    const gone = apiError(404, "SURVEY_PATIENTID_NOT_FOUND");
    expect(await outcome(() => refused(request, gone, { back: "/here", notFound: "/survey/7" }))).toEqual({
      to: "/survey/7",
      key: "fill.patientNotFound",
    });
    expect(await outcome(() => refused(request, apiError(404, "SURVEY_NOT_FOUND")))).toEqual({
      status: 404,
      data: { key: "errors.surveyNotFound" },
    });
  });

  it("goes back with the translated message of the type", async () => {
    const closed = apiError(409, "SURVEY_INVALID_STATUS");
    expect(await outcome(() => refused(request, closed, { back: "/survey/7/edit" }))).toEqual({
      to: "/survey/7/edit",
      key: "errors.invalidStatus",
    });
    // Without a place to go back to, the error page shows the message with the API's status.
    expect(await outcome(() => refused(request, apiError(503, "SERVICE_UNAVAILABLE")))).toEqual({
      status: 503,
      data: { key: "errors.unavailable" },
    });
  });

  it("follows the page's own places and messages for some types", async () => {
    const way = {
      back: "/survey/7/fill/P_1",
      to: { SURVEY_ALREADY_CLOSED: "/survey/7" },
      keys: { PAYLOAD_TOO_LARGE: "fill.formTooLarge" },
    };
    expect(await outcome(() => refused(request, apiError(409, "SURVEY_ALREADY_CLOSED"), way))).toEqual({
      to: "/survey/7",
      key: "fill.surveyCantBeFilledAlreadyClosed",
    });
    // The product's own errors (a form over the size limit) take the same way.
    expect(await outcome(() => refused(request, new AppError("PAYLOAD_TOO_LARGE"), way))).toEqual({
      to: "/survey/7/fill/P_1",
      key: "fill.formTooLarge",
    });
  });

  it("throws on what is no refusal", async () => {
    const bug = new TypeError("not a refusal");
    expect(await outcome(() => refused(request, bug, { back: "/surveys" }))).toEqual({ thrown: bug });
    const redirect = new Response(null, { status: 302, headers: { Location: "/elsewhere" } });
    expect(await outcome(() => refused(request, redirect, { back: "/surveys" }))).toEqual({
      to: "/elsewhere",
      key: null,
    });
  });
});

describe("refusal", () => {
  it("returns the status, type and message key of a refusal the page answers itself", () => {
    expect(refusalMessage(apiError(409, "SURVEY_EXISTING_QUESTION_RESPONSE"))).toEqual({
      status: 409,
      type: "SURVEY_EXISTING_QUESTION_RESPONSE",
      key: "errors.existingResponses",
    });
    expect(() => refusalMessage(apiError(401, "UNAUTHORIZED"))).toThrow(Response);
  });
});

describe("notFound", () => {
  it("goes to the given place with the message, or shows the not-found page", async () => {
    expect(await outcome(() => notFound(request, "errors.surveyNotFound", "/surveys"))).toEqual({
      to: "/surveys",
      key: "errors.surveyNotFound",
    });
    expect(await outcome(() => notFound(request, "errors.surveyNotFound"))).toEqual({
      status: 404,
      data: { key: "errors.surveyNotFound" },
    });
  });
});
