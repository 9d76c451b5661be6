// Measures the JavaScript a browser downloads for a route (gzip), from the production build's manifest,
// and compares it with the budget. Usage: node bench/bundle-size.mjs  (after npm run build)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
const manifest = build.assets;

/** Route chains a page loads (root first), and their budgets in KB gzip. */
export const pages = [{ page: "/surveys", routes: ["root", "routes/surveys"], budgetKb: 130 }];

function gzipSize(url) {
  const file = path.join(root, "build/client", url);
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

export function measure(routeIds) {
  const files = new Set([manifest.url, manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`No route ${id} in the build`);
    files.add(route.module);
    for (const f of route.imports ?? []) files.add(f);
  }
  let bytes = 0;
  for (const f of files) bytes += gzipSize(f);
  return { files: files.size, kb: bytes / 1024 };
}

const rows = pages.map((p) => {
  const { files, kb } = measure(p.routes);
  return {
    figure: `JS for ${p.page} (gzip)`,
    value: `${kb.toFixed(1)} KB in ${files} files`,
    budget: `${p.budgetKb} KB`,
    ok: kb <= p.budgetKb,
  };
});
console.table(
  rows.map(({ figure, value, budget, ok }) => ({ figure, value, budget, verdict: ok ? "within" : "OVER" })),
);
if (process.argv.includes("--json")) console.log(JSON.stringify(rows));
process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
