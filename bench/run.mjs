// Runs every benchmark with a budget; each prints its figures, budget and verdict. Needs `npm run build` first.
import { spawnSync } from "node:child_process";

const benches = [
  [process.execPath, ["bench/bundle-size.mjs"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/answer-load.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/sync-load.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/pages-load.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/editor-size.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/statistics-load.ts"]],
  // The longest: seeds 10,000, 100,000 and 300,000 cases on each database (keep them with BENCH_SQLITE_DIR
  // and BENCH_POSTGRES_KEEP).
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/statistics-growth.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/graphs-render.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/attachments.ts"]],
  ["npx", ["playwright", "test", "--config", "bench/offline-queue.config.ts"]],
  ["npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/lighthouse.ts"]],
];
let failed = false;
for (const [cmd, args] of benches) {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
