import { describe, expect, it } from "vitest";
import {
  canFill,
  fillBlock,
  fillPath,
  isClearRequest,
  resolveStartId,
  shouldLookUp,
  startState,
  suggestionsFor,
  type PatientLookup,
} from "./start-state";

const lookup = (patientId: string, openIds: string[], isClosed = false): PatientLookup => ({
  patientId,
  openIds,
  isClosed,
});

describe("startState", () => {
  it("refuses an id with characters other than letters, digits and underscore", () => {
    for (const typed of ["ab-12", "a b", "x.y", "a/b", "<b>"]) {
      const state = startState({ typed, autoGeneration: true });
      expect(state).toMatchObject({ validity: "invalid", message: "invalid", disabled: true, button: "start" });
    }
    expect(startState({ typed: "Müller_01", autoGeneration: false }).validity).toBe("valid");
  });

  it("ignores surrounding spaces", () => {
    expect(startState({ typed: "  P_1 ", autoGeneration: false })).toMatchObject({
      patientId: "P_1",
      validity: "valid",
    });
  });

  it("lets an empty field start a new case only when the survey generates ids", () => {
    expect(startState({ typed: "", autoGeneration: true })).toMatchObject({
      validity: "empty",
      helper: "optional",
      button: "start",
      disabled: false,
      message: null,
    });
    expect(startState({ typed: " ", autoGeneration: false })).toMatchObject({
      validity: "empty",
      helper: "mandatory",
      button: "start",
      disabled: true,
    });
  });

  it("offers to open an id that has an open case", () => {
    const state = startState({ typed: "P1", autoGeneration: false, lookup: lookup("P1", ["P1", "P10"]) });
    expect(state).toMatchObject({ validity: "valid", button: "open", message: "open", disabled: false });
  });

  it("starts a new case for an id that the lookup does not know", () => {
    const state = startState({ typed: "P2", autoGeneration: false, lookup: lookup("P2", []) });
    expect(state).toMatchObject({ validity: "valid", button: "start", message: null });
  });

  it("offline, opens an id the device keeps and says it cannot tell about any other", () => {
    const kept = startState({ typed: "X1", autoGeneration: false, lookup: lookup("X1", ["X1"]), deviceOnly: true });
    expect(kept).toMatchObject({ validity: "valid", button: "open", message: "openOnDevice", disabled: false });
    const unknown = startState({ typed: "X2", autoGeneration: false, lookup: lookup("X2", []), deviceOnly: true });
    // Not "valid": whether the server has a case with this id cannot be told without it.
    expect(unknown).toMatchObject({ validity: "unknown", button: "start", message: "unknown", disabled: false });
    expect(startState({ typed: "X3", autoGeneration: false, deviceOnly: true }).message).toBe("unknown");
    const closed = startState({ typed: "X4", autoGeneration: false, lookup: lookup("X4", [], true), deviceOnly: true });
    expect(closed).toMatchObject({ validity: "closed", message: "closed", button: "clear" });
    expect(startState({ typed: "", autoGeneration: true, deviceOnly: true }).message).toBeNull();
  });

  it("only matches an open id exactly", () => {
    expect(startState({ typed: "P", autoGeneration: false, lookup: lookup("P", ["P1"]) }).button).toBe("start");
  });

  it("ignores a lookup made for another text (an answer that arrived late)", () => {
    const stale = lookup("P1", ["P1"], true);
    expect(startState({ typed: "P12", autoGeneration: false, lookup: stale })).toMatchObject({
      button: "start",
      message: null,
    });
  });

  it("turns the button into clear for a closed case, from the lookup or from the server's answer", () => {
    const expected = { validity: "closed", button: "clear", message: "closed", disabled: false };
    expect(startState({ typed: "C1", autoGeneration: false, lookup: lookup("C1", [], true) })).toMatchObject(expected);
    expect(startState({ typed: "C1", autoGeneration: false, closedId: "C1" })).toMatchObject(expected);
    expect(startState({ typed: "C2", autoGeneration: false, closedId: "C1" }).button).toBe("start");
    expect(startState({ typed: "", autoGeneration: true, closedId: "C1" }).button).toBe("start");
  });
});

describe("suggestionsFor", () => {
  it("suggests open ids that begin with the typed text, at most ten", () => {
    const many = Array.from({ length: 15 }, (_, i) => `AB${i}`);
    expect(suggestionsFor("AB", lookup("AB", many))).toHaveLength(10);
    expect(suggestionsFor("ab", lookup("AB", many))).toEqual([]);
    expect(suggestionsFor("AB1", lookup("AB", many))).toEqual(["AB1", "AB10", "AB11", "AB12", "AB13", "AB14"]);
  });

  it("suggests nothing for an empty field or without a lookup", () => {
    expect(suggestionsFor("", lookup("", ["A"]))).toEqual([]);
    expect(suggestionsFor("A", null)).toEqual([]);
  });
});

describe("shouldLookUp", () => {
  it("asks only about a valid, non-empty id", () => {
    expect(shouldLookUp("P1")).toBe(true);
    expect(shouldLookUp("  ")).toBe(false);
    expect(shouldLookUp("P-1")).toBe(false);
  });
});

describe("resolveStartId", () => {
  it("uses the typed id", () => {
    expect(resolveStartId(" P_7 ", false)).toEqual({ ok: true, patientId: "P_7", generated: false });
  });

  it("generates an id for an empty field when the survey allows it", () => {
    expect(resolveStartId("", true, () => "123456789012")).toEqual({
      ok: true,
      patientId: "123456789012",
      generated: true,
    });
    const generated = resolveStartId("", true);
    expect(generated.ok && generated.patientId).toMatch(/^\d{12}$/);
  });

  it("names the problem otherwise", () => {
    expect(resolveStartId("", false)).toEqual({ ok: false, problem: "required" });
    expect(resolveStartId("a-b", true)).toEqual({ ok: false, problem: "invalid" });
  });
});

describe("isClearRequest", () => {
  it("clears only the id the clear button was shown for", () => {
    expect(isClearRequest("clear", "C1", "C1")).toBe(true);
    expect(isClearRequest("clear", "C2", "C1")).toBe(false);
    expect(isClearRequest("start", "C1", "C1")).toBe(false);
    expect(isClearRequest("clear", "C1", null)).toBe(false);
  });
});

describe("fillPath", () => {
  it("points at the fill page of the case", () => {
    expect(fillPath(7, "P_1")).toBe("/survey/7/fill/P_1");
  });
});

describe("fillBlock", () => {
  it("lets only an Active survey the person may take part in be filled", () => {
    const rights = (CanParticipate: boolean) => ({ Rights: { CanParticipate } });
    expect(fillBlock({ Status: "Active", ...rights(true) })).toBeNull();
    expect(fillBlock({ Status: "Active", ...rights(false) })).toBe("notAllowed");
    for (const Status of ["Draft", "Pending", "Closed", "Ended", "Archived"]) {
      expect(fillBlock({ Status, ...rights(true) })).toBe("notActive");
      expect(canFill({ Status, ...rights(true) })).toBe(false);
    }
    expect(canFill({ Status: "Active", ...rights(true) })).toBe(true);
    // A survey the person may no longer take part in is not kept for offline fill either (downloads.ts).
    expect(canFill({ Status: "Active", ...rights(false) })).toBe(false);
  });
});
