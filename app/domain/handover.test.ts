import { describe, expect, it } from "vitest";
import {
  afterWrongPin,
  backFromQuestionnaire,
  handOverOffered,
  handoverPath,
  noTries,
  pageAllowedInHandover,
  pinProblem,
  pinWaitLeft,
  waitAfter,
} from "./handover";

const kase = { surveyId: 7, patientId: "A 12/3" };

describe("the hand-over's PIN", () => {
  it("is 4 to 8 digits, typed the same twice", () => {
    expect(pinProblem("1234", "1234")).toBeNull();
    expect(pinProblem("12345678", "12345678")).toBeNull();
    expect(pinProblem("123", "123")).toBe("format");
    expect(pinProblem("123456789", "123456789")).toBe("format");
    expect(pinProblem("12a4", "12a4")).toBe("format");
    expect(pinProblem("1234", "1243")).toBe("mismatch");
  });

  it("allows five wrong tries, then waits 30 s, doubling up to 15 minutes", () => {
    expect([0, 1, 4].map(waitAfter)).toEqual([0, 0, 0]);
    expect(waitAfter(5)).toBe(30_000);
    expect(waitAfter(6)).toBe(60_000);
    expect(waitAfter(9)).toBe(480_000);
    expect(waitAfter(10)).toBe(900_000);
    expect(waitAfter(40)).toBe(900_000);
  });

  it("counts wrong tries and says how long is left to wait", () => {
    let tries = noTries();
    for (let i = 0; i < 4; i++) tries = afterWrongPin(tries, 1000);
    expect(tries).toEqual({ failures: 4, waitUntil: 0 });
    expect(pinWaitLeft(tries, 1000)).toBe(0);
    tries = afterWrongPin(tries, 1000);
    expect(tries).toEqual({ failures: 5, waitUntil: 31_000 });
    expect(pinWaitLeft(tries, 11_000)).toBe(20_000);
    expect(pinWaitLeft(tries, 31_000)).toBe(0);
    expect(afterWrongPin(tries, 40_000)).toEqual({ failures: 6, waitUntil: 100_000 });
  });
});

describe("the patient mode's pages", () => {
  it("are the case's fill page, the survey's files and the way back, nothing else", () => {
    const fill = handoverPath(kase);
    expect(fill).toBe("/survey/7/fill/A%2012%2F3");
    expect(pageAllowedInHandover(fill, kase)).toBe(true);
    expect(pageAllowedInHandover(`${fill}/`, kase)).toBe(true);
    expect(pageAllowedInHandover("/survey/7/files/3", kase)).toBe(true);
    expect(pageAllowedInHandover("/handover/return", kase)).toBe(true);
    expect(pageAllowedInHandover("/handover/return/callback", kase)).toBe(true);
    for (const other of [
      "/surveys",
      "/survey/7",
      "/survey/7/fill/B1",
      "/survey/8/fill/A%2012%2F3",
      "/survey/7/statistics",
      "/survey/7/sign/A%2012%2F3",
      "/survey/8/files/3",
      "/authentication/logout",
      "/handover",
    ]) {
      expect(pageAllowedInHandover(other, kase), other).toBe(false);
    }
  });
});

describe("where the fill page offers the hand-over", () => {
  const survey = (PreliminaryByPatient: boolean, withPreliminary = true, Enabled = true) => ({
    PreliminaryByPatient,
    IntroText: "<p>Willkommen</p>",
    IsPatientFormEnabled: withPreliminary,
    PatientForm: withPreliminary ? [{ Enabled }] : [],
  });

  it("after the preliminary questions while staff answer them", () => {
    expect(handOverOffered(survey(false), "intro")).toBe(false);
    expect(handOverOffered(survey(false), "preliminary")).toBe(false);
    expect(handOverOffered(survey(false), "questionnaire")).toBe(true);
    expect(handOverOffered(survey(false, false), "intro")).toBe(true);
    // Preliminary questions all disabled make no page: nothing for staff to answer first.
    expect(handOverOffered(survey(false, true, false), "intro")).toBe(true);
  });

  it("from the first page where the patient answers them, never on the confirmation", () => {
    expect(handOverOffered(survey(true), "intro")).toBe(true);
    expect(handOverOffered(survey(true), "preliminary")).toBe(true);
    expect(handOverOffered(survey(true), "questionnaire")).toBe(true);
    expect(handOverOffered(survey(true), "done")).toBe(false);
    expect(handOverOffered(survey(false), "done")).toBe(false);
  });
});

describe("where the questionnaire's Back goes", () => {
  const survey = (parts: { intro?: boolean; preliminary?: boolean; byPatient?: boolean }) => ({
    PreliminaryByPatient: Boolean(parts.byPatient),
    IntroText: parts.intro ? "<p>Willkommen</p>" : "<p> </p>",
    IsPatientFormEnabled: Boolean(parts.preliminary),
    PatientForm: parts.preliminary ? [{ Enabled: true }] : [],
    Categories: [{ Questions: [{}] }],
  });

  it("nowhere from a questionnaire that is the case's first page (it drew the same page again)", () => {
    expect(backFromQuestionnaire(survey({}), false)).toBeNull();
    expect(backFromQuestionnaire(survey({}), true)).toBeNull();
  });

  it("to the page before it, for a patient alone only where that page is the patient's", () => {
    expect(backFromQuestionnaire(survey({ intro: true }), false)).toBe("intro");
    expect(backFromQuestionnaire(survey({ intro: true }), true)).toBe("intro");
    expect(backFromQuestionnaire(survey({ intro: true, preliminary: true }), false)).toBe("preliminary");
    expect(backFromQuestionnaire(survey({ intro: true, preliminary: true }), true)).toBeNull();
    expect(backFromQuestionnaire(survey({ preliminary: true, byPatient: true }), true)).toBe("preliminary");
  });
});
