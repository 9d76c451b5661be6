import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Every decision record says when it was taken and what changed it since, and the index lists it. */
const folder = path.resolve("docs/decisions");
const records = fs
  .readdirSync(folder)
  .filter((f) => /^\d{3}-.+\.md$/.test(f))
  .sort();
const index = fs.readFileSync(path.join(folder, "README.md"), "utf8");

describe("decision records", () => {
  it.each(records)("%s has its number in the title and a status with a date", (file) => {
    const [title, blank, status] = fs.readFileSync(path.join(folder, file), "utf8").split("\n");
    expect(title).toMatch(new RegExp(`^# ${file.slice(0, 3)} \\S`));
    expect(blank).toBe("");
    expect(status).toMatch(/^Status: (accepted|superseded|amended)\b.*\b20\d{2}-\d{2}-\d{2}\b.*\.$/);
  });

  it("are all in the index, in order, and the index names no other", () => {
    const listed = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(listed).toEqual(records);
  });
});
