import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Survey } from "~/domain/survey";
import { downloadSurvey } from "./downloads";
import { downloadedIds, getSurvey } from "./survey-store";
import { freshDatabases } from "./test-support";

const warm = vi.hoisted(() => ({ fails: false, calls: 0 }));
vi.mock("./sw.client", () => ({
  warmOffline: async () => {
    warm.calls += 1;
    if (warm.fails) throw new Error("/assets/chunk.js: 404");
  },
}));
vi.mock("./case-download", () => ({ keepLatestCases: async () => undefined }));
vi.mock("./persistence", () => ({ requestPersistence: async () => false }));
const served = vi.hoisted(() => ({ hash: "h1" }));
vi.mock("~/api-client", () => ({
  callApi: async () => ({
    ok: true,
    data: { Id: 7, Title: "Herz", Hash: served.hash, Status: "Active", Rights: { CanParticipate: true } },
  }),
}));

beforeEach(() => {
  // The list hears of each download through a window event.
  vi.stubGlobal("window", new EventTarget());
  freshDatabases();
  Object.assign(warm, { fails: false, calls: 0 });
  served.hash = "h1";
});

describe("a download for offline use", () => {
  it("keeps the survey once its pages are kept", async () => {
    await downloadSurvey(7);
    expect(await downloadedIds()).toEqual([7]);
    expect(warm.calls).toBe(1);
  });

  it("is not offered as ready when its pages could not all be kept", async () => {
    warm.fails = true;
    await expect(downloadSurvey(7)).rejects.toThrow("404");
    expect(await downloadedIds()).toEqual([]);
  });

  it("keeps a survey kept before when its next download fails, with its newer copy", async () => {
    await downloadSurvey(7);
    warm.fails = true;
    served.hash = "h2";
    await expect(downloadSurvey(7)).rejects.toThrow();
    expect(await downloadedIds()).toEqual([7]);
    expect(((await getSurvey(7)) as Survey).Hash).toBe("h2");
  });
});
