// A bench that starts its server and its browser, says where they are, and then ends as its first argument
// says: "throw" (an error escapes it), "event" (an 'error' event no one listens to, as a browser that cannot
// be spawned raises) or "wait" (until a signal stops it). For tests/bench/lifetime.test.ts.
import { EventEmitter } from "node:events";
import fs from "node:fs";
import { launchBenchBrowser } from "../../bench/browser";
import { startBenchServer } from "../../bench/server";

const how = process.argv[2];
const server = await startBenchServer(undefined, { DEMO_DATA: "false" });
const browser = await launchBenchBrowser();
// Playwright names no process of a browser it launched: the browser is this process's Chromium child.
const chromiumChild = fs
  .readdirSync("/proc")
  .filter((pid) => /^\d+$/.test(pid))
  .find((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return ppid === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("chrom");
    } catch {
      return false;
    }
  });
if (!browser.isConnected() || !chromiumChild) throw new Error("no browser started");
console.log(JSON.stringify({ app: server.app, server: server.process.pid, browser: Number(chromiumChild) }));
// Told to go on (a line on its input), it fails; "wait" waits for its signal.
process.stdin.once("data", () => {
  if (how === "throw") throw new Error("a bench fails");
  if (how === "event") new EventEmitter().emit("error", new Error("a launcher fails"));
});
