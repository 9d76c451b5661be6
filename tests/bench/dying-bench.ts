// A bench that starts its server and its browser, says where they are, and then ends as its first argument
// says: "throw" (an error escapes it), "event" (an 'error' event no one listens to, as a browser that cannot
// be spawned raises) or "wait" (until a signal stops it). For tests/bench/lifetime.test.ts.
import { EventEmitter } from "node:events";
import { launchBenchBrowser } from "../../bench/browser";
import { startBenchServer } from "../../bench/server";

const how = process.argv[2];
const server = await startBenchServer(undefined, { DEMO_DATA: "false" });
const browser = await launchBenchBrowser();
console.log(JSON.stringify({ app: server.app, server: server.process.pid, browser: browser.process()?.pid }));
if (how === "throw") throw new Error("a bench fails");
if (how === "event") new EventEmitter().emit("error", new Error("a launcher fails"));
setInterval(() => undefined, 1000);
