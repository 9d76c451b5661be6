import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The browser meets the API's refusals one way (app/components/ui/useRefusal.ts): no page or component of its
 * own sends a 401 or 403 to its page or compares a status with them. The session renewal (layout/useSilentRenew.ts,
 * and offline/OfflineLayer.tsx back online) asks the sign-in's own route, not the API, and keeps its check; the
 * offline sync (app/offline/sync-client.ts) tells the sync flow "unauthorized" and signs in again, never leaving
 * the page (decision 043).
 */
const ALLOWED = [
  "app/components/ui/useRefusal.ts",
  "app/components/layout/useSilentRenew.ts",
  "app/components/offline/OfflineLayer.tsx",
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe("refusals in the browser", () => {
  it("are met through useRefusal only", () => {
    const own = [...sources("app/components"), ...sources("app/routes")]
      .filter((file) => !ALLOWED.includes(file))
      .filter((file) => {
        const text = fs.readFileSync(file, "utf8");
        return /status\s*===?\s*40[13]\b/.test(text) || /location\.(assign|replace|href)\W+["'`]\/40[13]/.test(text);
      });
    expect(own).toEqual([]);
  });
});
