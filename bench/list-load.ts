// Load on the survey list page (/surveys, rendered on the server with the demo surveys): autocannon on
// loopback, a signed-in person, 20 connections. The issue asks for zero errors and the p99; the
// throughput is reported.
// Usage: npx tsx --tsconfig tsconfig.json bench/list-load.ts   (after npm run build)
import autocannon from "autocannon";
import { startBenchServer } from "./server";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

const server = await startBenchServer({ username: "admin", password: "admin123" }, { DEMO_DATA: "true" });
try {
  const page = await fetch(`${server.app}/surveys`, { headers: { cookie: server.cookie } });
  const html = await page.text();
  if (!page.ok || !html.includes('data-testid="survey-row"'))
    throw new Error(`the list did not render: ${page.status}`);

  const result = await autocannon({
    url: `${server.app}/surveys`,
    connections: 20,
    duration: DURATION_S,
    headers: { cookie: server.cookie, "accept-encoding": "gzip" },
  });
  const errors = result.errors + result.non2xx + result.timeouts;
  console.table([
    {
      figure: "survey list page, requests/s",
      value: result.requests.average.toFixed(0),
      budget: "(reported)",
      verdict: "-",
    },
    { figure: "survey list page, p99 latency", value: `${result.latency.p99} ms`, budget: "(reported)", verdict: "-" },
    { figure: "errors (incl. non-2xx)", value: String(errors), budget: "0", verdict: errors === 0 ? "within" : "OVER" },
  ]);
  process.exitCode = errors === 0 ? 0 : 1;
} finally {
  await server.stop();
}
