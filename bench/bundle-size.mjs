// The JavaScript and the CSS a browser downloads per page (gzip), from the production build's manifest, with the
// page's language file, against the budgets; and checks that the rich-text editor's code loads on the editor route
// only, the sortable tables' library (@tanstack/react-table) on none of the budgeted pages, and that no script
// carries a language file inlined.
// Usage: node bench/bundle-size.mjs (after npm run build)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
const manifest = build.assets;

/** Pages and the route chain each loads (root first), with their budgets in KB gzip and the text parts they show. */
const pages = [
  { page: "/surveys", routes: ["root", "routes/surveys"], budgetKb: 130, cssBudgetKb: 6 },
  { page: "/survey/:id (start)", routes: ["root", "routes/survey.$surveyId._index"], budgetKb: 140, cssBudgetKb: 6 },
  {
    page: "/survey/:id/fill/:patientId",
    routes: ["root", "routes/survey.$surveyId.fill.$patientId"],
    budgetKb: 140,
    cssBudgetKb: 6,
  },
  { page: "/survey-archives", routes: ["root", "routes/survey-archives"], budgetKb: 130, cssBudgetKb: 6 },
  {
    page: "/survey/:id/edit",
    routes: ["root", "routes/survey.$surveyId.edit"],
    budgetKb: null,
    cssBudgetKb: 9,
    authoring: true,
  },
  {
    page: "/survey/:id/statistics",
    routes: ["root", "routes/survey.$surveyId.statistics"],
    budgetKb: null,
    cssBudgetKb: 8.5,
    authoring: true,
  },
];
const EDITOR_ONLY = "routes/survey.$surveyId.edit";

const sizes = new Map();
function gzipKb(file) {
  if (!sizes.has(file))
    sizes.set(file, zlib.gzipSync(fs.readFileSync(path.join(root, "build/client", file)), { level: 9 }).length / 1024);
  return sizes.get(file);
}
const isRichText = (file) =>
  /ProseMirror|prosemirror-/.test(fs.readFileSync(path.join(root, "build/client", file), "utf8"));
// A language file inlined into a script (Vite's data address for a small asset) travels with every page.
const inlinesTexts = (file) =>
  file.endsWith(".js") &&
  fs.readFileSync(path.join(root, "build/client", file), "utf8").includes("data:application/json");
// The table library's row models keep their names (object properties survive minification).
const isTableLibrary = (file) =>
  /getSortedRowModel/.test(fs.readFileSync(path.join(root, "build/client", file), "utf8"));

function filesOf(routeIds) {
  const files = new Set([manifest.url, manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) return null;
    files.add(route.module);
    for (const f of route.imports ?? []) files.add(f);
  }
  return files;
}

// A page also fetches its language's texts before it starts (one language: the larger is counted): the
// common part everywhere, the authoring part (editor and statistics) where it is shown.
const languageFiles = JSON.parse(fs.readFileSync(path.join(root, "build/client/offline-assets.json"), "utf8")).filter(
  (file) => file.endsWith(".json"),
);
const partKb = (part) => Math.max(...languageFiles.filter((f) => path.basename(f).startsWith(`${part}-`)).map(gzipKb));
const textsKb = (p) => partKb("common") + (p.authoring ? partKb("authoring") : 0);

// The styles every page links (root.tsx: app/styles/index.css), and each route's own (its features' stylesheets).
const rootStyles = fs.readdirSync(path.join(root, "build/client/assets")).filter((f) => /^index-.*\.css$/.test(f));
function stylesOf(routeIds) {
  const files = new Set(rootStyles.map((f) => `/assets/${f}`));
  for (const id of routeIds) for (const f of manifest.routes[id]?.css ?? []) files.add(f);
  return files;
}

const rows = [];
let ok = true;
for (const p of pages) {
  const files = filesOf(p.routes);
  if (!files) continue;
  const kb = [...files].reduce((sum, f) => sum + gzipKb(f), textsKb(p));
  const richText = [...files].some(isRichText);
  const within = p.budgetKb === null || kb <= p.budgetKb;
  const richOk = richText === p.routes.includes(EDITOR_ONLY);
  const tables = [...files].some(isTableLibrary);
  const tablesOk = p.budgetKb === null || !tables;
  const cssKb = [...stylesOf(p.routes)].reduce((sum, f) => sum + gzipKb(f), 0);
  const cssWithin = cssKb <= p.cssBudgetKb;
  const textsApart = ![...files].some(inlinesTexts);
  ok &&= within && richOk && tablesOk && cssWithin && textsApart;
  rows.push({
    page: p.page,
    "JS gzip": `${kb.toFixed(1)} KB`,
    budget: p.budgetKb === null ? "-" : `${p.budgetKb} KB`,
    "rich-text code": richText ? "yes" : "no",
    "table library": tables ? "yes" : "no",
    "CSS gzip": `${cssKb.toFixed(1)} KB`,
    "CSS budget": `${p.cssBudgetKb} KB`,
    "texts inlined": textsApart ? "no" : "yes",
    verdict: within && richOk && tablesOk && cssWithin && textsApart ? "within" : "OVER",
  });
}
console.table(rows);
process.exitCode = ok ? 0 : 1;
