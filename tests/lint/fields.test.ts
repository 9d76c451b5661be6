import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A form field's label, hint and message are wired to its control one way: by Field or Choice
 * (app/components/ui/Field.tsx), which bind the label with `htmlFor` and the hint, the message and a live status
 * with aria-describedby and aria-invalid. A label that wraps its control (a checkbox in a list of choices) binds
 * itself and is allowed; a label bound by `htmlFor` anywhere else is a field wired by hand.
 */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [file] : [];
  });
}

describe("form fields", () => {
  it("bind their labels through Field or Choice only", () => {
    const byHand = [...sources("app/components"), ...sources("app/routes")]
      .filter((file) => file !== path.join("app", "components", "ui", "Field.tsx"))
      .filter((file) => /htmlFor=/.test(fs.readFileSync(file, "utf8")));
    expect(byHand).toEqual([]);
  });
});
