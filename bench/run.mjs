// Runs every benchmark with a budget; each prints its figures, budget and verdict, and at the end the list of
// those that failed. Needs `npm run build` first, and the browser the tests use (README: chromium-headless-shell).
import { spawnSync } from "node:child_process";

const tsx = (file) => ["npx", ["tsx", "--tsconfig", "tsconfig.json", file]];
const benches = [
  [process.execPath, ["bench/bundle-size.mjs"]],
  tsx("bench/answer-load.ts"),
  tsx("bench/sync-load.ts"),
  tsx("bench/pages-load.ts"),
  tsx("bench/editor-size.ts"),
  tsx("bench/statistics-load.ts"),
  // The longest: seeds 10,000, 100,000 and 300,000 cases on each database (keep them with BENCH_SQLITE_DIR
  // and BENCH_POSTGRES_KEEP).
  tsx("bench/statistics-growth.ts"),
  tsx("bench/graphs-render.ts"),
  tsx("bench/attachments.ts"),
  ["npx", ["playwright", "test", "--config", "bench/offline-queue.config.ts"]],
  tsx("bench/lighthouse.ts"),
];
const failed = [];
for (const [cmd, args] of benches) {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  const name = args.find((a) => a.startsWith("bench/"));
  // A bench stopped by a signal has no status: it failed too.
  if (r.status !== 0)
    failed.push(`${name} (${r.error?.message ?? (r.signal ? `stopped by ${r.signal}` : `exit ${r.status}`)})`);
}
console.log(
  failed.length === 0
    ? `\nAll ${benches.length} benches within their budgets.`
    : `\n${failed.length} of ${benches.length} benches failed:\n${failed.map((f) => `  ${f}`).join("\n")}`,
);
process.exit(failed.length === 0 ? 0 : 1);
