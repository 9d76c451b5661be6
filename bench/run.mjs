// Runs every benchmark with a budget and prints figure, budget and verdict.
import { spawnSync } from "node:child_process";

const benches = ["bench/bundle-size.mjs"];
let failed = false;
for (const b of benches) {
  const r = spawnSync(process.execPath, [b], { stdio: "inherit" });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
