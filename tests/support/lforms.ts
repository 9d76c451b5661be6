import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import playwrightConfig from "../../playwright.config";

/**
 * LHC-Forms (the npm package lforms, decision 052) in the tests: a Questionnaire rendered by another FHIR
 * implementation, with a QuestionnaireResponse merged in if given, and what that form then holds. The
 * package is not a dependency (its Angular dependencies take minutes to resolve): its tarball is fetched
 * once with `npm pack` into node_modules/.cache, checked against its pinned integrity, and the parts a page
 * needs are unpacked and served to Chromium from there.
 */

const VERSION = "40.1.3";
const INTEGRITY = "sha512-WLruTm+BcVnafC0rSAQ3/cNqhxvclBUxyBG68aub/uha2NaK9H8ZZcEXTTuORuGzzCt0wa7fvhuieZtcDIdPzQ==";
const CACHE = path.resolve("node_modules", ".cache", `lforms-${VERSION}`);
/** What the page loads (the package's README, "Using the LHC-Forms Web Component"), under dist/lforms. */
const PARTS = ["webcomponent", "fhir/R4"];
/** The page's made-up origin: every request to it is answered from the unpacked package. */
const ORIGIN = "http://lhc-forms.test";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR resources are open JSON here
type Json = any;

/** The tarball's integrity as npm states it: the algorithm and the base64 of its digest. */
function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
}

/**
 * The unpacked package's dist/lforms, fetched and checked on first use. Unpacked beside the cache and renamed
 * into place, so that a second test file starting at the same time never reads a half-written copy.
 */
function packageDir(): string {
  const dist = path.join(CACHE, "package", "dist", "lforms");
  if (fs.existsSync(dist)) return dist;
  fs.mkdirSync(path.dirname(CACHE), { recursive: true });
  const work = fs.mkdtempSync(`${CACHE}.part-`);
  try {
    const packed = JSON.parse(
      execFileSync("npm", ["pack", `lforms@${VERSION}`, "--json", "--pack-destination", work], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as { filename: string }[];
    const tarball = path.join(work, packed[0]!.filename);
    const integrity = integrityOf(tarball);
    if (integrity !== INTEGRITY) throw new Error(`lforms@${VERSION}: integrity ${integrity}, expected ${INTEGRITY}`);
    const wanted = PARTS.map((p) => `package/dist/lforms/${p}`);
    execFileSync("tar", ["-xzf", tarball, "-C", work, "--no-same-owner", ...wanted], { stdio: "pipe" });
    fs.rmSync(tarball);
    try {
      fs.renameSync(work, CACHE);
    } catch (error) {
      // Another test file put its copy in place first: that one is as good.
      if (!fs.existsSync(dist)) throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return dist;
}

/** The page: the web component's scripts go in the body, which they add to as they load. */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="stylesheet" href="/webcomponent/styles.css" />
  </head>
  <body>
    <div id="form"></div>
    <script src="/webcomponent/assets/lib/zone.min.js"></script>
    <script src="/webcomponent/runtime.js"></script>
    <script src="/webcomponent/polyfills.js"></script>
    <script src="/webcomponent/main.js"></script>
    <script src="/fhir/R4/lformsFHIR.min.js"></script>
  </body>
</html>`;

/** Served as UTF-8: the FHIR library's expression parser holds text that another charset garbles. */
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".html": "text/html",
};

/** What LHC-Forms holds once it has rendered a Questionnaire. */
export interface Held {
  /**
   * The QuestionnaireResponse LHC-Forms makes of the form (`LForms.Util.getFormFHIRData`): the answers merged
   * in and the values it calculated; items it leaves out (empty or disabled) are not in it.
   */
  response: Json;
  /** The linkIds of the items LHC-Forms shows, in order: those its enableWhen leaves enabled. */
  shown: string[];
  /**
   * The values the form holds, by linkId, in LHC-Forms' own shapes (a coding as {code, text}, a file as its
   * attachment): also those its QuestionnaireResponse leaves out.
   */
  values: Record<string, unknown[]>;
  /** The help text LHC-Forms shows with an item (its coding instructions), by linkId. */
  help: Record<string, string>;
}

export interface LhcForms {
  /** Renders a Questionnaire (with a QuestionnaireResponse merged into it, if given) and reads it back. */
  render(questionnaire: Json, response?: Json): Promise<Held>;
  /** Errors the page reported so far (scripts that threw, a form that did not render). */
  errors(): string[];
  close(): Promise<void>;
}

/** A browser with a page that has LHC-Forms loaded; one per test file is enough. */
export async function openLhcForms(): Promise<LhcForms> {
  const dist = packageDir();
  const browser: Browser = await chromium.launch(playwrightConfig.use?.launchOptions);
  try {
    const page: Page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.route(`${ORIGIN}/**`, async (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === "/") return route.fulfill({ contentType: "text/html; charset=utf-8", body: PAGE });
      const file = path.join(dist, path.normalize(pathname));
      if (!file.startsWith(dist + path.sep) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
      return route.fulfill({ path: file, contentType: TYPES[path.extname(file)] ?? "application/octet-stream" });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => "LForms" in window && "FHIR" in (window as Json).LForms);
    return {
      errors: () => [...errors],
      close: () => browser.close(),
      render: (questionnaire, response) =>
        page.evaluate(
          async ({ q, qr }) => {
            const LForms = (window as Json).LForms;
            const element = document.getElementById("form")!;
            LForms.Util.removeFormsFromPage(element);
            let form = LForms.Util.convertFHIRQuestionnaireToLForms(q, "R4");
            if (qr) {
              form = LForms.Util.mergeFHIRDataIntoLForms(qr, form, "R4");
              // Merged answers count as saved ones, and LHC-Forms then keeps a calculated item's saved value
              // (none) instead of calculating it: taken as entered, they are calculated from.
              delete form.hasSavedData;
            }
            const help: Record<string, string> = {};
            const helpOf = (items: Json[] | undefined) => {
              for (const item of items ?? []) {
                if (item.linkId && item.codingInstructions) help[item.linkId] = item.codingInstructions;
                helpOf(item.items);
              }
            };
            helpOf(form.items);
            await LForms.Util.addFormToPage(form, element, { fhirVersion: "R4" });
            // Calculated values and enableWhen settle after the form is ready: read once they stop changing
            // (the time it was read, `authored`, aside).
            const read = () => LForms.Util.getFormFHIRData("QuestionnaireResponse", "R4", element);
            let response = read();
            for (let i = 0; i < 50; i++) {
              await new Promise((resolve) => setTimeout(resolve, 20));
              const again = read();
              const same = JSON.stringify({ ...again, authored: "" }) === JSON.stringify({ ...response, authored: "" });
              response = again;
              if (same) break;
            }
            const shown: string[] = [];
            const walk = (items: Json[] | undefined) => {
              for (const item of items ?? []) {
                if (item.linkId) shown.push(item.linkId);
                walk(item.items);
              }
            };
            walk(LForms.Util.getUserData(element, false, false, true)?.itemsData);
            const values: Record<string, unknown[]> = {};
            const collect = (items: Json[] | undefined) => {
              for (const item of items ?? []) {
                if (item.linkId && item.value !== undefined && item.value !== null)
                  (values[item.linkId] ??= []).push(...(Array.isArray(item.value) ? item.value : [item.value]));
                collect(item.items);
              }
            };
            collect(LForms.Util.getUserData(element, false, true, true)?.itemsData);
            return { response, shown, values, help };
          },
          { q: questionnaire, qr: response },
        ),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
