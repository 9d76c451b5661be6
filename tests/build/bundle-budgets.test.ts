import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// The budgets of docs/performance.md, checked on the build the test command has just made: a page's code or
// styles growing past them fails here, not only when the bench is run by hand.
describe("the pages people open most", () => {
  it("stay within their JavaScript and CSS budgets", () => {
    const run = spawnSync(process.execPath, ["bench/bundle-size.mjs"], { encoding: "utf8" });
    expect(run.stdout).not.toContain("'OVER'");
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
