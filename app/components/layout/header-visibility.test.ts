import { describe, expect, it } from "vitest";
import { initialHeaderScroll, nextHeaderScroll, type HeaderScrollState } from "./header-visibility";

function scroll(ys: number[], from: HeaderScrollState = initialHeaderScroll) {
  return ys.reduce(nextHeaderScroll, from);
}

describe("header visibility on scroll", () => {
  it("stays visible for 20 px down and hides past it", () => {
    expect(scroll([10, 20]).visible).toBe(true);
    expect(scroll([10, 21]).visible).toBe(false);
  });

  it("stays hidden for 50 px up and shows past it", () => {
    const hidden = scroll([100, 300]);
    expect(hidden.visible).toBe(false);
    expect(scroll([280, 250], hidden).visible).toBe(false);
    expect(scroll([280, 249], hidden).visible).toBe(true);
  });

  it("shows at the top whatever came before", () => {
    expect(scroll([500, 0]).visible).toBe(true);
  });

  it("measures from where the direction turned, not from the top", () => {
    const hidden = scroll([400, 420, 440]);
    expect(hidden.visible).toBe(false);
    const up = scroll([400], hidden);
    expect(up.visible).toBe(false);
    const downAgain = scroll([430], up);
    expect(downAgain.visible).toBe(false);
    // 45 px up from the turn at 430 (55 px below the earlier 440): still hidden.
    expect(scroll([385], downAgain).visible).toBe(false);
    expect(scroll([379], downAgain).visible).toBe(true);
  });
});
