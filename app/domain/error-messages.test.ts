import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { errorMessageKey, errorMessageKeys } from "./error-messages";
import { errorStatus, type ErrorType } from "./errors";

const texts = (locale: string) => JSON.parse(fs.readFileSync(`locales/${locale}/common.json`, "utf8")) as unknown;
const textOf = (json: unknown, key: string) =>
  key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], json);

describe("errorMessageKeys", () => {
  it("names a message for every type of the catalogue, in both languages", () => {
    expect(Object.keys(errorMessageKeys).sort()).toEqual(Object.keys(errorStatus).sort());
    for (const locale of ["de-DE", "en-US"]) {
      const json = texts(locale);
      for (const [type, key] of Object.entries(errorMessageKeys))
        expect(typeof textOf(json, key), `${locale} ${type} ${key}`).toBe("string");
    }
  });

  it("gives the types that used to end as the generic message their own", () => {
    const generic = "errors.validation";
    const own = (Object.keys(errorStatus) as ErrorType[]).filter((t) => t !== "VALIDATION_ERROR");
    expect(own.filter((t) => errorMessageKeys[t] === generic)).toEqual([]);
    expect(errorMessageKey({ status: 409, type: "SURVEY_ALREADY_CLOSED" })).toBe(
      "fill.surveyCantBeFilledAlreadyClosed",
    );
    expect(errorMessageKey({ status: 406, type: "SURVEY_ATTACHMENTS_TOO_LARGE" })).toBe(
      "uploadErrors.SURVEY_ATTACHMENTS_TOO_LARGE",
    );
    expect(errorMessageKey({ status: 404, type: "SURVEY_NOT_FOUND" })).toBe("errors.surveyNotFound");
  });

  it("falls back on the status for a type outside the catalogue", () => {
    expect(errorMessageKey({ status: 502, type: "BAD_GATEWAY" })).toBe("errors.server");
    expect(errorMessageKey({ status: 422, type: "SOMETHING_ELSE" })).toBe("errors.validation");
    // Inherited names of an object are no types.
    expect(errorMessageKey({ status: 400, type: "toString" })).toBe("errors.validation");
  });
});
