import { describe, expect, it } from "vitest";
import { clinicZone, timeZoneProblem } from "./time-zone.server";

describe("the clinic's time zone", () => {
  const berlin = clinicZone("Europe/Berlin");

  it("a typed time carries the offset of its date: summer and winter time", () => {
    expect(berlin.wallClock("2026-09-29T15:00")).toBe("2026-09-29T15:00:00+02:00");
    expect(berlin.wallClock("2026-01-10T09:30")).toBe("2026-01-10T09:30:00+01:00");
    expect(berlin.wallClock("2024-03-01T08:00")).toBe("2024-03-01T08:00:00+01:00");
    expect(berlin.wallClock("2024-04-02T09:15")).toBe("2024-04-02T09:15:00+02:00");
    // Midnight and the last minute of a day, across the year's turn.
    expect(berlin.wallClock("2026-12-31T23:59")).toBe("2026-12-31T23:59:00+01:00");
    expect(berlin.wallClock("2027-01-01T00:00")).toBe("2027-01-01T00:00:00+01:00");
  });

  it("spring: the hour that does not exist is moved on by the gap and has the later offset", () => {
    // 29 March 2026: at 02:00 the clocks go to 03:00.
    expect(berlin.wallClock("2026-03-29T01:59")).toBe("2026-03-29T01:59:00+01:00");
    expect(berlin.wallClock("2026-03-29T02:00")).toBe("2026-03-29T03:00:00+02:00");
    expect(berlin.wallClock("2026-03-29T02:30")).toBe("2026-03-29T03:30:00+02:00");
    expect(berlin.wallClock("2026-03-29T02:59")).toBe("2026-03-29T03:59:00+02:00");
    expect(berlin.wallClock("2026-03-29T03:00")).toBe("2026-03-29T03:00:00+02:00");
  });

  it("autumn: the hour that comes twice is the earlier one, with the summer offset", () => {
    // 25 October 2026: at 03:00 the clocks go back to 02:00.
    expect(berlin.wallClock("2026-10-25T01:59")).toBe("2026-10-25T01:59:00+02:00");
    expect(berlin.wallClock("2026-10-25T02:00")).toBe("2026-10-25T02:00:00+02:00");
    expect(berlin.wallClock("2026-10-25T02:30")).toBe("2026-10-25T02:30:00+02:00");
    expect(berlin.wallClock("2026-10-25T02:59")).toBe("2026-10-25T02:59:00+02:00");
    expect(berlin.wallClock("2026-10-25T03:00")).toBe("2026-10-25T03:00:00+01:00");
    // The earlier of the two: 00:30 UTC, not 01:30.
    expect(Date.parse(berlin.wallClock("2026-10-25T02:30"))).toBe(Date.parse("2026-10-25T00:30:00Z"));
  });

  it("zones far from Berlin: New York with its own change days, Kolkata at +05:30", () => {
    const newYork = clinicZone("America/New_York");
    expect(newYork.wallClock("2026-09-29T15:00")).toBe("2026-09-29T15:00:00-04:00");
    expect(newYork.wallClock("2026-01-10T09:30")).toBe("2026-01-10T09:30:00-05:00");
    // 8 March 2026, 02:00 → 03:00; 1 November 2026, 02:00 → 01:00.
    expect(newYork.wallClock("2026-03-08T02:30")).toBe("2026-03-08T03:30:00-04:00");
    expect(newYork.wallClock("2026-11-01T01:30")).toBe("2026-11-01T01:30:00-04:00");
    expect(newYork.wallClock("2026-11-01T02:30")).toBe("2026-11-01T02:30:00-05:00");
    // Berlin is already on summer time on 28 March 2026, New York since 8 March.
    expect(newYork.wallClock("2026-03-20T12:00")).toBe("2026-03-20T12:00:00-04:00");
    expect(berlin.wallClock("2026-03-20T12:00")).toBe("2026-03-20T12:00:00+01:00");
    const kolkata = clinicZone("Asia/Kolkata");
    expect(kolkata.wallClock("2026-09-29T15:00")).toBe("2026-09-29T15:00:00+05:30");
    expect(kolkata.wallClock("2026-01-10T00:10")).toBe("2026-01-10T00:10:00+05:30");
    expect(Date.parse(kolkata.wallClock("2026-01-10T00:10"))).toBe(Date.parse("2026-01-09T18:40:00Z"));
    expect(clinicZone("UTC").wallClock("2026-09-29T15:00")).toBe("2026-09-29T15:00:00+00:00");
  });

  it("the offset at an instant, and an instant as local time with its offset", () => {
    expect(berlin.offsetAt(Date.parse("2026-03-29T00:59:59.999Z"))).toBe(3600);
    expect(berlin.offsetAt(Date.parse("2026-03-29T01:00:00Z"))).toBe(7200);
    expect(berlin.offsetAt(Date.parse("2026-10-25T00:59:59.999Z"))).toBe(7200);
    expect(berlin.offsetAt(Date.parse("2026-10-25T01:00:00Z"))).toBe(3600);
    expect(berlin.instant("2026-11-23T08:56:34.123Z")).toBe("2026-11-23T09:56:34+01:00");
    expect(berlin.instant("2026-07-01T22:30:00.000Z")).toBe("2026-07-02T00:30:00+02:00");
    expect(berlin.instant("2026-10-25T00:30:00.000Z")).toBe("2026-10-25T02:30:00+02:00");
    expect(berlin.instant("2026-10-25T01:30:00.000Z")).toBe("2026-10-25T02:30:00+01:00");
    expect(clinicZone("Asia/Kolkata").instant("2026-01-09T18:40:00Z")).toBe("2026-01-10T00:10:00+05:30");
    // The hour before and after the clocks turn, and an instant written with an offset of its own.
    expect(berlin.instant("2026-03-29T00:59:59.999Z")).toBe("2026-03-29T01:59:59+01:00");
    expect(berlin.instant("2026-03-29T01:00:00.000Z")).toBe("2026-03-29T03:00:00+02:00");
    expect(berlin.instant("2026-12-31T23:30:00.000Z")).toBe("2027-01-01T00:30:00+01:00");
    expect(berlin.instant("2026-11-23T10:56:34+02:00")).toBe("2026-11-23T09:56:34+01:00");
  });

  it("the same answer whichever hours were asked before (the memos per hour)", () => {
    const fresh = clinicZone("Europe/Paris");
    const times = ["2026-03-29T02:30", "2026-10-25T02:30", "2026-03-29T03:10", "2026-10-25T03:10", "2026-06-01T12:00"];
    const first = times.map((t) => fresh.wallClock(t));
    expect([...times].reverse().map((t) => fresh.wallClock(t))).toEqual([...first].reverse());
    expect(first).toEqual([
      "2026-03-29T03:30:00+02:00",
      "2026-10-25T02:30:00+02:00",
      "2026-03-29T03:10:00+02:00",
      "2026-10-25T03:10:00+01:00",
      "2026-06-01T12:00:00+02:00",
    ]);
    // Every minute of the hours around the changes, in two zones that change their clocks alike (two fresh
    // memos), one asked forwards and one backwards: each minute as decision 053 reads it.
    const spring = {
      "2026-03-29T01": ["01", "+01:00"],
      "2026-03-29T02": ["03", "+02:00"],
      "2026-03-29T03": ["03", "+02:00"],
    };
    const autumn = {
      "2026-10-25T01": ["01", "+02:00"],
      "2026-10-25T02": ["02", "+02:00"],
      "2026-10-25T03": ["03", "+01:00"],
    };
    const minutes = Object.entries({ ...spring, ...autumn }).flatMap(([hour, [shown, offset]]) =>
      Array.from({ length: 60 }, (_, m) => {
        const mm = String(m).padStart(2, "0");
        return { typed: `${hour}:${mm}`, written: `${hour.slice(0, 11)}${shown}:${mm}:00${offset}` };
      }),
    );
    const vienna = clinicZone("Europe/Vienna");
    const zurich = clinicZone("Europe/Zurich");
    expect(minutes.map((m) => vienna.wallClock(m.typed))).toEqual(minutes.map((m) => m.written));
    const backwards = [...minutes].reverse().map((m) => zurich.wallClock(m.typed));
    expect(backwards.reverse()).toEqual(minutes.map((m) => m.written));
  });

  it("years long past: local mean time's offset to the minute, the typed time kept", () => {
    // Berlin kept its local mean time (+00:53:28) until April 1893.
    expect(berlin.wallClock("1880-05-01T12:00")).toBe("1880-05-01T12:00:00+00:53");
    // Summer time in 1947 had a month of "double summer time"; 1950 had none.
    expect(berlin.wallClock("1947-06-01T12:00")).toBe("1947-06-01T12:00:00+03:00");
    expect(berlin.wallClock("1950-07-01T12:00")).toBe("1950-07-01T12:00:00+01:00");
  });

  it("a zone name is checked: a name Intl knows, spelled as the tz database does, not an offset", () => {
    expect(timeZoneProblem("Europe/Berlin")).toBeNull();
    expect(timeZoneProblem("America/New_York")).toBeNull();
    expect(timeZoneProblem("Asia/Kolkata")).toBeNull();
    expect(timeZoneProblem("UTC")).toBeNull();
    expect(timeZoneProblem("Europe/Gotham")).toMatch(/IANA time zone name/);
    expect(timeZoneProblem("CEST")).toMatch(/IANA time zone name/);
    expect(timeZoneProblem("europe/berlin")).toBe("must be written Europe/Berlin");
    expect(timeZoneProblem("+01:00")).toMatch(/not an offset/);
    expect(timeZoneProblem("")).toMatch(/not an offset/);
  });
});
