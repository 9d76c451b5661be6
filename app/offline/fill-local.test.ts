import "fake-indexeddb/auto";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Survey } from "~/domain/survey";
import { fillClientLoader, isShellDocument, keepCopy, localFillData, type ServerFillData } from "./fill-local";
import { keepCaseCopy } from "./case-copies";
import { recordAnswer } from "./fill-store";
import { getSurvey, saveSurvey } from "./survey-store";
import { ctx, freshDatabases, question } from "./test-support";

const warmed: number[][] = [];
vi.mock("./sw.client", () => ({
  warmOffline: async (ids: number[]) => {
    warmed.push(ids);
  },
}));

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
  attachments: {},
  page: "questionnaire" as const,
  categoryId: null,
  resumed: false,
  language: "de" as const,
} satisfies ServerFillData;

const args = (serverLoader: () => Promise<unknown>) =>
  ({
    params: { surveyId: "7", patientId: "P-1" },
    request: new Request("http://app.test/survey/7/fill/P-1?page=questionnaire"),
    serverLoader,
  }) as unknown as ClientLoaderFunctionArgs;

const survey = (Status: string, CanParticipate: boolean) =>
  ({ Id: 7, Title: "Herz", Status, Rights: { CanParticipate } }) as unknown as Survey;

describe("the fill route's client loader", () => {
  beforeEach(() => freshDatabases());

  it("hands back the server's data as the very same object, so the page is drawn from it once", async () => {
    const result = await fillClientLoader(args(async () => serverData));
    expect(result).toBe(serverData);
  });
});

describe("the fill page built on the device", () => {
  beforeEach(() => freshDatabases());

  it("opened without a page, goes on where the kept fill's answers are (decision 019)", async () => {
    const stored = {
      ...survey("Active", true),
      Hash: "h1",
      IntroText: "<p>Hallo</p>",
      IsPatientFormEnabled: false,
      PatientForm: [],
      Categories: [
        { Id: 1, Questions: [question(11, "FreeText")] },
        { Id: 2, Questions: [question(21, "FreeText")] },
      ],
    } as unknown as Survey;
    await saveSurvey(stored);
    const url = (search: string) => new URL(`http://app.test/survey/7/fill/P1${search}`);
    expect(await localFillData(7, "P1", url(""))).toMatchObject({ page: "intro", resumed: true });
    await recordAnswer(ctx("P1"), question(21, "FreeText"), { TextResponse: "x" });
    expect(await localFillData(7, "P1", url(""))).toMatchObject({
      page: "questionnaire",
      categoryId: 2,
      resumed: true,
    });
    expect(await localFillData(7, "P1", url("?page=intro"))).toMatchObject({ page: "intro", resumed: false });
  });

  it("continues an open case of the server the device keeps, until the device has a fill of it", async () => {
    await saveSurvey({
      ...survey("Active", true),
      Hash: "h1",
      IntroText: "",
      IsPatientFormEnabled: false,
      PatientForm: [],
      Categories: [{ Id: 1, Questions: [question(11, "FreeText")] }],
    } as unknown as Survey);
    await keepCaseCopy({
      surveyId: 7,
      patientId: "X",
      patientDataId: 12,
      version: 5,
      answers: { 11: { TextResponse: "vom Server" } },
      preliminary: { 50: 501 },
    });
    const url = new URL("http://app.test/survey/7/fill/X?page=questionnaire");
    expect(await localFillData(7, "X", url)).toMatchObject({
      answers: { 11: { TextResponse: "vom Server" } },
      preliminary: { 50: 501 },
      patientDataId: 12,
      base: { version: 5, answers: { 11: { TextResponse: "vom Server" } } },
      offline: true,
    });
    // Once the device has its own fill of the case, the page is drawn from that.
    await recordAnswer(ctx("X"), question(11, "FreeText"), { TextResponse: "hier" });
    const own = await localFillData(7, "X", url);
    expect(own.answers).toEqual({ 11: { TextResponse: "hier" } });
    expect(own.base).toBeUndefined();
  });
});

describe("keeping the survey's copy when its fill page opens online", () => {
  beforeEach(() => {
    freshDatabases();
    warmed.length = 0;
  });

  it("keeps an Active survey the person may fill, and has its pages kept the first time only", async () => {
    await keepCopy(survey("Active", true));
    expect((await getSurvey(7))?.Title).toBe("Herz");
    expect(warmed).toEqual([[7]]);
    await keepCopy({ ...survey("Active", true), Title: "Herz 2" });
    expect((await getSurvey(7))?.Title).toBe("Herz 2");
    expect(warmed).toEqual([[7]]);
  });

  it("forgets the copy of a survey no longer open to this person", async () => {
    await keepCopy(survey("Active", true));
    await keepCopy(survey("Inactive", true));
    expect(await getSurvey(7)).toBeUndefined();
    await keepCopy(survey("Active", true));
    await keepCopy(survey("Active", false));
    expect(await getSurvey(7)).toBeUndefined();
  });
});

describe("isShellDocument", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is true only on a page with the kept document's mark, and false on the server", () => {
    expect(isShellDocument()).toBe(false);
    const selectors: string[] = [];
    vi.stubGlobal("document", {
      querySelector: (s: string) => (selectors.push(s), s === "[data-offline-shell]" ? {} : null),
    });
    expect(isShellDocument()).toBe(true);
    vi.stubGlobal("document", { querySelector: () => null });
    expect(isShellDocument()).toBe(false);
    expect(selectors).toEqual(["[data-offline-shell]"]);
  });
});
