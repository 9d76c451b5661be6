import "fake-indexeddb/auto";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Survey } from "~/domain/survey";
import { fillClientLoader, type ServerFillData } from "./fill-local";
import { freshDatabases } from "./test-support";

const serverData = {
  // Not fillable: the loader forgets its copy instead of keeping one (no service worker here).
  survey: { Id: 7, Title: "Herz", Status: "Inactive", Rights: { CanParticipate: false } } as unknown as Survey,
  patientId: "P-1",
  patientDataId: 3,
  userId: "u",
  surveyUserDataId: 4,
  answers: {},
  preliminary: {},
  attachmentCounts: {},
  page: "questionnaire" as const,
  categoryId: null,
} satisfies ServerFillData;

const args = (serverLoader: () => Promise<unknown>) =>
  ({
    params: { surveyId: "7", patientId: "P-1" },
    request: new Request("http://app.test/survey/7/fill/P-1?page=questionnaire"),
    serverLoader,
  }) as unknown as ClientLoaderFunctionArgs;

describe("the fill route's client loader", () => {
  beforeEach(() => freshDatabases());

  it("hands back the server's data as the very same object, so the first load draws the page once", async () => {
    const result = await fillClientLoader(args(async () => serverData));
    expect(result).toBe(serverData);
  });
});
