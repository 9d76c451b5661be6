import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { hasKeptPage } from "./device-storage";
import { expect, test } from "./test";
import {
  ASSET_CACHE,
  PAGE_CACHE_PREFIX,
  PAGE_CACHE_VERSION,
  RETIRED_WORKER_URL,
  WORKER_URL,
  shellKey,
} from "../app/offline/sw-constants";
import { publishedSurvey } from "./api";
import { download, fillOffline, goOffline, offlineRig, oneQuestion, signInAt } from "./offline-support";

/** The built worker as the e2e server sends it (it reads the file on every request). */
const workerFile = path.join(process.cwd(), "build", "client", WORKER_URL);
const OLD_VERSION_CACHE = "offline-assets-v0";
const OLD_BUILD_ASSET = "/assets/entry.client-0ldBu1ld.js";

/**
 * Makes the next update check find a worker of another build: the built worker with one more line (and
 * without its compressed copies, which would still be the old bytes). Returns the undo.
 */
function deployNextWorker(): () => void {
  const original = fs.readFileSync(workerFile);
  const compressed = [".br", ".gz"].filter((ext) => fs.existsSync(workerFile + ext));
  for (const ext of compressed) fs.renameSync(workerFile + ext, `${workerFile}${ext}.e2e`);
  fs.writeFileSync(workerFile, Buffer.concat([original, Buffer.from(`\n// next build ${Date.now()}\n`)]));
  return () => {
    fs.writeFileSync(workerFile, original);
    for (const ext of compressed) fs.renameSync(`${workerFile}${ext}.e2e`, workerFile + ext);
  };
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

/** The signed-in person's kept pages: one cache of that name's shape (decision 048). */
const PERSON_PAGES = `${PAGE_CACHE_PREFIX}${PAGE_CACHE_VERSION}-`;

/**
 * What the caches hold: their names (the person's page cache as PERSON_PAGES), and whether the asset
 * cache and the person's page cache have these keys.
 */
function cacheState(page: Page, assets: string[], pages: string[]) {
  return page.evaluate(
    async ({ assetCache, personPages, assets, pages }) => {
      const names = await caches.keys();
      const pageCache = names.find((n) => n.startsWith(personPages)) ?? "none";
      const [a, p] = await Promise.all([caches.open(assetCache), caches.open(pageCache)]);
      return {
        names: names.map((n) => (n === pageCache ? personPages : n)).sort(),
        assets: await Promise.all(assets.map(async (url) => Boolean(await a.match(url)))),
        pages: await Promise.all(pages.map(async (url) => Boolean(await p.match(url)))),
      };
    },
    { assetCache: ASSET_CACHE, personPages: PERSON_PAGES, assets, pages },
  );
}

test("the worker is served fresh at its own address; the retired /sw.js is gone", async ({ request }) => {
  const worker = await request.get(WORKER_URL);
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toMatch(/javascript/);
  expect(worker.headers()["cache-control"]).toBe("no-cache");
  expect(worker.headers()["service-worker-allowed"]).toBe("/");
  expect(await worker.text()).not.toContain("__BUILD_MANIFEST_MODULE__");
  expect((await request.get(RETIRED_WORKER_URL)).status()).toBe(404);
});

test("a new build's worker deletes an earlier version's cache and earlier builds' assets; offline filling goes on", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  let undo: (() => void) | undefined;
  try {
    await signInAt(page, "admin");
    const title = `Neuer Stand ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, oneQuestion);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
    expect(new URL(firstWorker).pathname).toBe(WORKER_URL);
    const manifestModule = await page.evaluate(
      () => (window as unknown as { __remixManifest: { url: string } }).__remixManifest.url,
    );

    // What an earlier version and an earlier build left: a cache of another version, and in the current
    // asset cache a file that is not in this build.
    await page.evaluate(
      async ({ oldCache, assetCache, oldAsset }) => {
        await (await caches.open(oldCache)).put("/assets/kept-by-v0.js", new Response("0"));
        await (await caches.open(assetCache)).put(oldAsset, new Response("old build"));
      },
      { oldCache: OLD_VERSION_CACHE, assetCache: ASSET_CACHE, oldAsset: OLD_BUILD_ASSET },
    );
    const before = await cacheState(page, [OLD_BUILD_ASSET, manifestModule], [shellKey(surveyId)]);
    expect(before.names).toContain(OLD_VERSION_CACHE);
    expect(before.assets).toEqual([true, true]);

    // The next build is deployed and its worker found: it installs, takes over and cleans up.
    undo = deployNextWorker();
    const activated = await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      const changed = new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }),
      );
      await registration.update();
      await changed;
      return registration.active?.scriptURL ?? "";
    });
    expect(new URL(activated).pathname).toBe(WORKER_URL);
    undo();
    undo = undefined;

    // The clean-up runs on activation and again once the page has kept its documents anew: waited for.
    // The earlier build's file goes; this build's files and the kept documents stay.
    await expect
      .poll(() => cacheState(page, [OLD_BUILD_ASSET, manifestModule], [shellKey(surveyId), "/surveys"]), {
        timeout: 30_000,
      })
      .toEqual({ names: [ASSET_CACHE, PERSON_PAGES].sort(), assets: [false, true], pages: [true, true] });

    // Nothing offline filling needs went with them.
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${surveyId}`), "UPDATE_1");
    await page.reload();
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
  } finally {
    undo?.();
    await rig.dispose(context);
  }
});

test("a device that ran the retired /sw.js gets the built worker in its place and keeps filling offline", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Alter Worker ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, oneQuestion);

    // The device runs the retired worker (served here as earlier versions served it) and keeps a survey
    // with it, through the same messages.
    await context.route(`**${RETIRED_WORKER_URL}`, (route) =>
      route.fulfill({ contentType: "text/javascript", body: fs.readFileSync("e2e/fixtures/retired-sw.js", "utf8") }),
    );
    await page.goto(rig.url("/surveys"));
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const retired = await page.evaluate(async (url) => {
      const changed = new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }),
      );
      await navigator.serviceWorker.register(url, { scope: "/" });
      await changed;
      return navigator.serviceWorker.controller!.scriptURL;
    }, RETIRED_WORKER_URL);
    expect(new URL(retired).pathname).toBe(RETIRED_WORKER_URL);
    await download(page, title);
    // The retired worker kept its pages for whoever was signed in, in one cache of its own.
    const inRetiredCache = () =>
      page.evaluate(
        async (key) => Boolean(await (await caches.open("offline-pages-v1")).match(key)),
        shellKey(surveyId),
      );
    expect(await inRetiredCache()).toBe(true);

    // This version no longer serves /sw.js; the next page registers the built worker for the same scope.
    await context.unroute(`**${RETIRED_WORKER_URL}`);
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ""), { timeout: 60_000 })
      .toMatch(new RegExp(`${WORKER_URL.replace(/\./g, "\\.")}$`));
    const registrations = await page.evaluate(async () =>
      (await navigator.serviceWorker.getRegistrations()).map((r) => ({
        scope: new URL(r.scope).pathname,
        scripts: [r.installing, r.waiting, r.active]
          .filter((w) => w !== null)
          .map((w) => new URL(w.scriptURL).pathname),
      })),
    );
    expect(registrations).toEqual([{ scope: "/", scripts: [WORKER_URL] }]);

    // Pages kept for nobody in particular are not kept any more; the signed-in person's pages are kept again
    // for them (decision 048), and the survey the device kept fills offline.
    await expect.poll(() => hasKeptPage(page, shellKey(surveyId)), { timeout: 30_000 }).toBe(true);
    expect(await cacheNames(page)).not.toContain("offline-pages-v1");
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${surveyId}`), "RETIRED_1");
    await page.reload();
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
  } finally {
    await rig.dispose(context);
  }
});
