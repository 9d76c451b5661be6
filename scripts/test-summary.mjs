// Prints one closing line over both test runners: "N passed, N failed, N skipped".
import fs from "node:fs";

const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : null);
let passed = 0;
let failed = 0;
let skipped = 0;
// The names of the failed tests, each with the first lines of why, printed before the count so the end of a
// long log says what failed and how (a log's tail may be all that is kept of a run).
const failures = [];
/** The terminal's colour codes (ESC [ … m), which a log read as text shows as noise. */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const why = (message) =>
  String(message ?? "")
    .replace(COLOURS, "")
    .split("\n")
    .filter((line) => line.trim())
    .slice(0, 4)
    .map((line) => `    ${line.trim().slice(0, 200)}`)
    .join("\n");
/**
 * Every error of a failed Playwright test, each with the line it stopped at: a test that ran out of time has
 * a second error naming the step that was still waiting, which the first ("Test timeout … exceeded") does not.
 */
const errorsOf = (test) =>
  (test.results ?? [])
    .flatMap((r) => (r.errors?.length ? r.errors : r.error ? [r.error] : []))
    .map(
      (e) =>
        `${why(e.message)}${e.location ? `\n    at ${e.location.file.split("/").slice(-2).join("/")}:${e.location.line}` : ""}`,
    )
    .filter((text, i, all) => text.trim() && all.indexOf(text) === i)
    .join("\n");
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
  for (const suite of vitest.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status === "failed")
        failures.push(`${suite.name}: ${test.fullName}\n${why((test.failureMessages ?? [])[0])}`);
    }
    if (suite.status === "failed" && !(suite.assertionResults ?? []).length)
      failures.push(`${suite.name}: ${suite.message}`);
  }
}
for (const file of ["test-results/playwright.json", "test-results/deployment.json"]) {
  const pw = read(file);
  if (!pw) continue;
  passed += pw.stats.expected + (pw.stats.flaky ?? 0);
  failed += pw.stats.unexpected;
  skipped += pw.stats.skipped;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected") {
          failures.push(`${spec.file}:${spec.line}: ${[...titles, spec.title].join(" › ")}\n${errorsOf(test)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.title && !suite.file ? [...titles, suite.title] : titles);
  };
  for (const suite of pw.suites ?? []) walk(suite, []);
}
for (const failure of failures) console.log(`failed: ${failure}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
