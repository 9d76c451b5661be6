import { describe, expect, it } from "vitest";
import { isoToWireDate, periodErrors, pushedEndDate, wireToIsoDate } from "./dates";

describe("dates", () => {
  it("converts between DD.MM.YYYY and YYYY-MM-DD, refusing impossible dates", () => {
    expect(wireToIsoDate("24.12.2026")).toBe("2026-12-24");
    expect(wireToIsoDate("29.02.2028")).toBe("2028-02-29");
    expect(wireToIsoDate("29.02.2027")).toBeNull();
    expect(wireToIsoDate("2026-12-24")).toBeNull();
    expect(wireToIsoDate("1.1.2026")).toBeNull();
    expect(isoToWireDate("2026-12-24")).toBe("24.12.2026");
    expect(isoToWireDate(null)).toBe("");
  });

  it("pushes the end date to a start moved past it, and leaves it otherwise", () => {
    expect(pushedEndDate("20.03.2027", "10.03.2027")).toBe("20.03.2027");
    expect(pushedEndDate("01.03.2027", "10.03.2027")).toBe("10.03.2027");
    expect(pushedEndDate("01.03.2027", "")).toBe("");
  });

  it("names what is wrong with a period", () => {
    expect(periodErrors("01.03.2027", "10.03.2027")).toEqual({});
    expect(periodErrors("", "")).toEqual({});
    expect(periodErrors("10.03.2027", "01.03.2027")).toEqual({ end: "beforeStart" });
    expect(periodErrors("31.02.2027", "")).toEqual({ start: "invalid" });
    expect(periodErrors("", "xx")).toEqual({ end: "invalid" });
  });
});
