import "fake-indexeddb/auto";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Survey, SurveyListEntry } from "~/domain/survey";
import { keepDrawnList, keptList, listClientLoader } from "./list-local";
import { saveRootData } from "./root-cache";
import { getSurveyList, saveSurvey, saveSurveyList } from "./survey-store";
import { freshDatabases } from "./test-support";

vi.mock("./downloads", () => ({ refreshCopies: async () => undefined }));

const entry = (Id: number, Title: string) =>
  ({ Id, Title, StartDate: "", EndDate: "", Status: "Active", Hash: "h", Rights: {} }) as SurveyListEntry;
const me = { fullName: "Julia", institute: "Klinik", roles: [], userId: "u", surveyUserDataId: 3 };

const offlineArgs = (q = "") =>
  ({
    request: new Request(`http://app.test/surveys${q ? `?q=${q}` : ""}`),
    serverLoader: () => Promise.reject(new TypeError("Failed to fetch")),
  }) as unknown as ClientLoaderFunctionArgs;

beforeEach(() => {
  freshDatabases();
  const storage = new Map<string, string>();
  vi.stubGlobal("window", {
    localStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
    },
    dispatchEvent: () => true,
  });
  saveRootData({ user: me });
});

describe("the survey list on this device", () => {
  it("keeps the list a page was drawn with, but not one filtered or built on the device", async () => {
    keepDrawnList({ surveys: [entry(1, "Filtered")], q: "Fil" });
    keepDrawnList({ surveys: [entry(2, "Local")], q: "", local: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(await getSurveyList()).toEqual([]);
    keepDrawnList({ surveys: [entry(1, "Herz"), entry(2, "Lunge")], q: "" });
    await vi.waitFor(async () => expect((await getSurveyList()).map((s) => s.Id)).toEqual([1, 2]));
  });

  it("offline, lists every stored survey, also one the kept list lacks, and filters by title", async () => {
    await saveSurveyList([entry(1, "Herz")]);
    await saveSurvey({ ...entry(5, "Lunge"), Categories: [] } as unknown as Survey);
    expect((await keptList()).map((s) => s.Id)).toEqual([1, 5]);
    const all = (await listClientLoader(offlineArgs())) as { surveys: SurveyListEntry[]; local?: true };
    expect(all.surveys.map((s) => s.Title)).toEqual(["Herz", "Lunge"]);
    expect(all.local).toBe(true);
    const found = (await listClientLoader(offlineArgs("lun"))) as { surveys: SurveyListEntry[] };
    expect(found.surveys.map((s) => s.Title)).toEqual(["Lunge"]);
  });

  it("without a kept list, the stored surveys still show", async () => {
    await saveSurvey({ ...entry(9, "Niere"), Categories: [] } as unknown as Survey);
    const data = (await listClientLoader(offlineArgs())) as { surveys: SurveyListEntry[] };
    expect(data.surveys.map((s) => s.Id)).toEqual([9]);
  });
});
