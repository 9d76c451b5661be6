import { describe, expect, it } from "vitest";
import { amountState, monthsOf, shortens, shownAs, shownIn, switchUnit } from "./retention-period";

describe("the retention period as shown", () => {
  it("shows whole years as years, else months, and 0 as none", () => {
    expect(shownAs(0)).toEqual({ unit: "none", amount: "" });
    expect(shownAs(120)).toEqual({ unit: "years", amount: "10" });
    expect(shownAs(18)).toEqual({ unit: "months", amount: "18" });
  });

  it("keeps the unit shown where it can say the period", () => {
    expect(shownIn("months", 24)).toEqual({ unit: "months", amount: "24" });
    expect(shownIn("years", 24)).toEqual({ unit: "years", amount: "2" });
    expect(shownIn("years", 18)).toEqual({ unit: "months", amount: "18" });
    expect(shownIn("months", 0)).toEqual({ unit: "none", amount: "" });
  });

  it("reads whole amounts in range, and says when one is needed or wrong", () => {
    expect(monthsOf({ unit: "years", amount: "2" })).toBe(24);
    expect(monthsOf({ unit: "months", amount: " 18 " })).toBe(18);
    expect(monthsOf({ unit: "none", amount: "" })).toBe(0);
    for (const amount of ["", "0", "1.5", "abc", "1201"])
      expect(monthsOf({ unit: "months", amount }), amount).toBeNull();
    expect(monthsOf({ unit: "years", amount: "101" })).toBeNull();
    expect(amountState({ unit: "months", amount: "" })).toBe("needed");
    expect(amountState({ unit: "months", amount: "x" })).toBe("invalid");
    expect(amountState({ unit: "years", amount: "3" })).toBe("ok");
  });
});

describe("choosing another unit", () => {
  it("keeps the period where the new unit can say it", () => {
    expect(switchUnit({ unit: "months", amount: "24" }, "years")).toEqual({ shown: { unit: "years", amount: "2" } });
    expect(switchUnit({ unit: "years", amount: "18" }, "months")).toEqual({ shown: { unit: "months", amount: "216" } });
  });

  it("asks for an amount where it cannot, naming the months that stay saved", () => {
    expect(switchUnit({ unit: "months", amount: "18" }, "years")).toEqual({
      shown: { unit: "years", amount: "" },
      notWhole: 18,
    });
  });

  it("fills in nothing after none, and empties the amount for none", () => {
    expect(switchUnit({ unit: "none", amount: "" }, "months")).toEqual({ shown: { unit: "months", amount: "" } });
    expect(switchUnit({ unit: "none", amount: "" }, "years")).toEqual({ shown: { unit: "years", amount: "" } });
    expect(switchUnit({ unit: "years", amount: "10" }, "none")).toEqual({ shown: { unit: "none", amount: "" } });
  });

  it("leaves an amount that is no number as typed", () => {
    expect(switchUnit({ unit: "months", amount: "1x" }, "years")).toEqual({ shown: { unit: "years", amount: "1x" } });
  });
});

describe("a shorter period", () => {
  it("is any period after none, or fewer months than saved", () => {
    expect(shortens(120, 0)).toBe(true);
    expect(shortens(6, 12)).toBe(true);
    expect(shortens(24, 12)).toBe(false);
    expect(shortens(12, 12)).toBe(false);
    expect(shortens(0, 12)).toBe(false);
  });
});
