// Prints one closing line over both test runners: "N passed, N failed, N skipped".
import fs from "node:fs";

const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : null);
let passed = 0;
let failed = 0;
let skipped = 0;
// The whole vitest run, the Firefox run, and the runs on the other Node lines (test-results/node-NN.json).
const vitestFiles = [
  "test-results/vitest.json",
  "test-results/firefox.json",
  ...(fs.existsSync("test-results") ? fs.readdirSync("test-results") : [])
    .filter((f) => /^node-\d+\.json$/.test(f))
    .map((f) => `test-results/${f}`),
];
for (const file of vitestFiles) {
  const vitest = read(file);
  if (!vitest) continue;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
for (const file of ["test-results/playwright.json", "test-results/deployment.json"]) {
  const pw = read(file);
  if (!pw) continue;
  passed += pw.stats.expected + (pw.stats.flaky ?? 0);
  failed += pw.stats.unexpected;
  skipped += pw.stats.skipped;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
