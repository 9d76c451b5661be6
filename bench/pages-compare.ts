// Two builds of the app side by side on one page: each started with the demo data, the same load (20
// connections) sent to each in turn in short bursts, so that both meet the same moments of a shared, noisy
// machine; prints each build's server CPU per request and requests served. A change's effect on a page is
// then a ratio measured in one run, which holds where a figure of one run against another's does not.
// Usage: npx tsx --tsconfig tsconfig.json bench/pages-compare.ts   with BENCH_BUILDS="dirA,dirB" (two
// checkouts, each with node_modules and `npm run build` done), BENCH_PAGE ("/surveys", "/survey/ID" or
// "/survey/ID/fill/PATIENT", ID standing for the first Active demo survey; the fill page by default),
// BENCH_ROUNDS (8), BENCH_BURST_SECONDS (2) and BENCH_FRESH=1 to ask for the page at a new address every
// time (a parameter the page ignores), so that each request renders it: nothing kept; BENCH_TOGETHER=1 to
// load both builds at the same time, 10 connections each, which holds on a machine busy with other work.
import fs from "node:fs";
import autocannon from "autocannon";
import { startBenchServer, type BenchServer } from "./server";

const builds = (process.env.BENCH_BUILDS ?? "").split(",").filter(Boolean);
if (builds.length !== 2) throw new Error('Set BENCH_BUILDS="dirA,dirB": two checkouts with their builds');
const PAGE = process.env.BENCH_PAGE ?? "/survey/ID/fill/PATIENT";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const BURST_S = Number(process.env.BENCH_BURST_SECONDS ?? 2);
const FRESH = process.env.BENCH_FRESH === "1";
/** Both builds under load at once (10 connections each): each meets the very same moments of the machine. */
const TOGETHER = process.env.BENCH_TOGETHER === "1";
const PATIENT = "COMPARE1";
/** Linux's clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/** CPU the server process (all its threads) has used so far, in ms. */
function serverCpuMs(server: BenchServer): number {
  const fields = fs.readFileSync(`/proc/${server.process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

const servers: BenchServer[] = [];
try {
  for (const dir of builds) {
    // The bench server starts server/index.js of the working directory.
    process.chdir(dir);
    servers.push(await startBenchServer({ username: "admin", password: "admin123" }, { DEMO_DATA: "true" }));
  }
  const paths: string[] = [];
  for (const server of servers) {
    const headers = { cookie: server.cookie, origin: server.app, "content-type": "application/json" };
    const list = (await (await fetch(`${server.app}/api/surveys`, { headers })).json()) as {
      Data: { Id: number; Status: string }[];
    };
    const active = list.Data.find((s) => s.Status === "Active");
    if (!active) throw new Error("no Active demo survey");
    const added = await fetch(`${server.app}/api/patients/add?patientId=${PATIENT}&surveyId=${active.Id}`, {
      method: "POST",
      headers,
    });
    if (!added.ok) throw new Error(`the case was not started: ${added.status}`);
    paths.push(PAGE.replace("ID", String(active.Id)).replace("PATIENT", PATIENT));
  }
  const totals = servers.map(() => ({ cpuMs: 0, requests: 0, p99: [] as number[] }));
  // Round -1 warms both up and is not counted; the order alternates from round to round.
  for (let round = -1; round < ROUNDS; round++) {
    const burst = async (k: number, connections: number) => {
      const server = servers[k]!;
      const before = serverCpuMs(server);
      let sent = 0;
      const result = await autocannon({
        url: `${server.app}${paths[k]}`,
        connections,
        duration: BURST_S,
        headers: { cookie: server.cookie, "accept-encoding": "gzip" },
        ...(FRESH ? { requests: [{ setupRequest: (req) => ({ ...req, path: `${paths[k]}?n=${++sent}` }) }] } : {}),
      });
      if (result.non2xx + result.errors > 0) throw new Error(`${builds[k]}: ${result.non2xx + result.errors} failures`);
      if (round < 0) return;
      totals[k]!.cpuMs += serverCpuMs(server) - before;
      totals[k]!.requests += result.requests.total;
      totals[k]!.p99.push(result.latency.p99);
    };
    if (TOGETHER) await Promise.all(servers.map((_, k) => burst(k, 10)));
    else for (let turn = 0; turn < servers.length; turn++) await burst((turn + round + 1) % servers.length, 20);
  }
  console.table(
    totals.map((t, k) => ({
      build: builds[k],
      page: paths[k],
      requests: t.requests,
      "server CPU/request": `${(t.cpuMs / t.requests).toFixed(3)} ms`,
      "p99 per burst": t.p99.join(", "),
    })),
  );
  const [a, b] = totals.map((t) => t.cpuMs / t.requests);
  console.log(`CPU per request, second against first: ${(((b - a) / a) * 100).toFixed(1)} %`);
} finally {
  for (const server of servers) await server.stop();
}
