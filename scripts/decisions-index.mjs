// Writes docs/decisions/README.md, the index of the decision records, from each record's title and status
// line (tests/docs/decisions.test.ts checks that every record has them and is listed).
import fs from "node:fs";
import path from "node:path";

const folder = path.resolve("docs/decisions");
const rows = fs
  .readdirSync(folder)
  .filter((f) => /^\d{3}-.+\.md$/.test(f))
  .sort()
  .map((file) => {
    const [title, , status] = fs.readFileSync(path.join(folder, file), "utf8").split("\n");
    const name = title.replace(/^# \d{3} /, "");
    return `| ${file.slice(0, 3)} | [${name}](${file}) | ${status.replace(/^Status: /, "").replace(/\.$/, "")} |`;
  });
const text = [
  "# Decision records",
  "",
  "Each record says what was decided, why, and what follows from it (context, decision, consequences); its status",
  "line says when it was taken and which later record changed it. Newest last. This index is written by",
  "`npm run docs:decisions`.",
  "",
  "| no. | decision | status |",
  "| --- | --- | --- |",
  ...rows,
  "",
].join("\n");
fs.writeFileSync(path.join(folder, "README.md"), text);
