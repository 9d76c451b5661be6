import { describe, expect, it } from "vitest";
import { dayStartIn, trailFilterOf } from "./audit-reading";

describe("the change log's filter", () => {
  it("reads the plain GET form's fields, empty ones as no filter", () => {
    expect(
      trailFilterOf(new URLSearchParams("actor=7&action=survey.update&from=2026-01-02&to=2026-01-31&page=3")),
    ).toEqual({
      actor: 7,
      action: "survey.update",
      from: "2026-01-02",
      to: "2026-01-31",
      page: 3,
    });
    expect(trailFilterOf(new URLSearchParams("actor=&action=&from=&to="))).toEqual({ page: 1 });
  });

  it("drops a field that is not valid rather than the whole filter", () => {
    expect(trailFilterOf(new URLSearchParams("actor=x&action=survey.approve&from=31.12.2026&page=0"))).toEqual({
      action: "survey.approve",
      page: 1,
    });
  });
});

describe("a day's start in a time zone", () => {
  it("is midnight there, in UTC, in winter and in summer time", () => {
    expect(dayStartIn("2026-01-15", "Europe/Berlin")).toBe("2026-01-14T23:00:00.000Z");
    expect(dayStartIn("2026-07-15", "Europe/Berlin")).toBe("2026-07-14T22:00:00.000Z");
    expect(dayStartIn("2026-07-15", "Europe/Berlin", 1)).toBe("2026-07-15T22:00:00.000Z");
    // The day summer time starts: midnight is still winter time.
    expect(dayStartIn("2026-03-29", "Europe/Berlin")).toBe("2026-03-28T23:00:00.000Z");
    expect(dayStartIn("2026-03-29", "UTC")).toBe("2026-03-29T00:00:00.000Z");
  });
});
