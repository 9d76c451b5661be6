// A copy of the server that only writes audit rows, as a process of its own (tests/db/audit-verify-under-writes
// .test.ts): `--url postgres://…` or `--sqlite /path/file.sqlite`. It prints "writing" once its first write has
// committed, writes until its standard input ends, then prints how many writes it made and exits.
import path from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "~/server/db/db.server";
import { keepWriting } from "./audit-writes";

const { values } = parseArgs({ options: { url: { type: "string" }, sqlite: { type: "string" } } });
const db = values.url
  ? createDb({ databaseUrl: values.url, dataDir: "" })
  : createDb({ dataDir: path.dirname(values.sqlite!), filename: path.basename(values.sqlite!) });

let stop = false;
process.stdin.on("end", () => (stop = true));
process.stdin.resume();
const writes = await keepWriting(db, () => stop, {
  written: (made) => {
    if (made === 1) process.stdout.write("writing\n");
  },
});
await db.destroy();
process.stdout.write(`${JSON.stringify({ writes })}\n`);
