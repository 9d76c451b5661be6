import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { chromium, type Locator, type Page } from "@playwright/test";
import config from "../../playwright.config";
import { api } from "../api";
import { png } from "../images";
import { accounts } from "../support";
import { expect, test } from "./fixture";
import { TOKEN_SECONDS, type Topology } from "./topology";

/**
 * A working session through the proxy, as staff and operators meet it: sign in at the provider in its own
 * process, build and publish a survey, start a case, answer every kind, upload a file through the proxy and
 * download it from each copy, fill offline and sync, read statistics, sign out. Requests alternate between
 * the two copies; the session outlives several access tokens (they live TOKEN_SECONDS).
 */

const HEART = "Herzinsuffizienz – Verlaufsbogen";

function question(page: Page, title: string) {
  return page.getByTestId("fill-question").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

async function addQuestion(page: Page, where: Locator, kind: string, title: string) {
  await where.locator("summary[title='Frage hinzufügen']").click();
  await page.getByRole("button", { name: kind, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Frage hinzufügen: ${kind}` });
  await dialog.getByLabel("Fragetext").fill(title);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog).toBeHidden();
  return page.getByTestId("question").filter({ hasText: title }).first();
}

/** Adds an answer on the question's card: typed, then Enter (saved through the proxy). */
async function addAnswer(where: Locator, text: string) {
  const field = where.getByPlaceholder("Neue Antwort").first();
  await field.fill(text);
  await field.press("Enter");
  await expect(field).toHaveValue("");
  await expect(where.getByTestId("answer").filter({ hasText: text })).toHaveCount(1);
}

async function startCase(page: Page, patientId: string) {
  await expect(page.getByTestId("start-title")).toBeVisible();
  await page
    .getByLabel(/Patienten/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
}

/** How many requests a copy answered, from its log lines. */
function served(lines: string[], name: "a" | "b") {
  return lines.filter((l) => l.includes('"msg":"request"') && l.includes(`"instance":"copy-${name}"`)).length;
}

/** A POST over https through the proxy (its certificate is made for the test), as a browser would send it. */
function postTls(topology: Topology, path: string, body: string, cookie = "") {
  return new Promise<{ status: number; location?: string; cookies: string[] }>((resolve, reject) => {
    const req = https.request(
      `${topology.tlsUrl}${path}`,
      {
        method: "POST",
        rejectUnauthorized: false,
        headers: {
          origin: topology.tlsUrl,
          cookie,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            cookies: res.headers["set-cookie"] ?? [],
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("one working session through nginx and two copies, across several token lifetimes", async ({ topology, page }) => {
  test.setTimeout(300_000);
  const started = Date.now();
  // Only what this walk leaves in the logs counts (other tests of the suite may have run before).
  const accessLog = `${topology.logDir}/nginx-access.log`;
  const accessFrom = fs.existsSync(accessLog) ? fs.readFileSync(accessLog, "utf8").length : 0;
  const logFrom = { a: topology.logs.a.length, b: topology.logs.b.length };

  // The demo data was seeded once although both copies started together on the empty database: eight surveys
  // built by the seed and the PHQ-9 it imports from its FHIR file.
  expect(topology.surveysAtStart).toBe(9);
  // The export lines of the busiest demo surveys were written ahead in the background, by the copy that took
  // the lease (decision 032).
  await expect
    .poll(() => [...topology.logs.a, ...topology.logs.b].some((line) => line.includes("export.readied")), {
      timeout: 90_000,
    })
    .toBe(true);
  const readied = await topology.query<{ n: string }>("select count(*)::text as n from case_export_rows");
  expect(Number(readied[0]!.n)).toBeGreaterThan(0);

  // Sign in at the provider's own process.
  await page.goto("/surveys");
  await expect(page).toHaveURL(new RegExp(`^${topology.issuer}/`));
  await page.locator("#username").fill(accounts.admin.username);
  await page.locator("#password").fill(accounts.admin.password);
  await page.locator("button[type=submit]").click();
  await expect(page.getByTestId("greeting")).toContainText(accounts.admin.fullName);

  // Create and edit a survey through the pages.
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  const surveyId = Number(/\/survey\/(\d+)\/edit/.exec(page.url())![1]);
  const title = `Einsatz ${Date.now()}`;
  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await page.getByLabel("Titel", { exact: true }).fill(title);
  await page.getByLabel("Titel", { exact: true }).press("Enter");
  await page.getByRole("tab", { name: /Fragebogen/ }).click();
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  const cat = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
  await cat.getByLabel("Titel der Kategorie").fill("Teil 1");
  await cat.getByRole("button", { name: "Speichern" }).click();
  const category = page.getByTestId("category").filter({ hasText: "Teil 1" });
  const feeling = await addQuestion(page, category, "Einfachauswahl", "Befinden");
  await addAnswer(feeling, "gut");
  await addAnswer(feeling, "schlecht");
  // The editor's own API call, with the session cookie through the proxy.
  const categories = await api<{ Categories: { Id: number }[] }>(page, "GET", `/surveys/${surveyId}`);
  await api(page, "POST", "/questions", {
    SurveyId: surveyId,
    CategoryId: categories.Categories[0]!.Id,
    Title: "Befund",
    Type: "FreeText",
    AllowFileAttachments: true,
  });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(title);

  // Publish.
  await page.getByRole("link", { name: "Veröffentlichen" }).click();
  const publish = page.getByRole("dialog", { name: "Umfrage veröffentlichen" });
  await publish.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(page.getByText("Die Umfrage wurde veröffentlicht.")).toBeVisible();

  // Keep it for offline use, from the list.
  await page.goto("/surveys");
  const row = page.getByTestId("survey-row").filter({ hasText: title });
  await row.locator("summary").click();
  await row.getByTestId("row-download").click();
  await expect(row.getByTestId("row-ready")).toBeVisible({ timeout: 30_000 });

  // Start a case, answer, and attach a file through the proxy.
  await page.goto(`/survey/${surveyId}`);
  await startCase(page, "DEPLOY_1");
  await question(page, "Befinden").getByLabel("gut").check();
  const box = question(page, "Befund").getByTestId("attachments");
  await box.getByLabel("Anhänge").setInputFiles({ name: "befund.png", mimeType: "image/png", buffer: png() });
  await expect(box.getByText("befund.png")).toBeVisible();

  // The file is served by either copy, from a link either copy made.
  const caseState = await api<{ PatientDataId: number }>(
    page,
    "GET",
    `/patients?patientId=DEPLOY_1&surveyId=${surveyId}`,
  );
  const files = await api<{ Id: number }[]>(
    page,
    "GET",
    `/file-attachments?questionId=${(await api<{ Categories: { Questions: { Id: number; Title: string }[] }[] }>(page, "GET", `/surveys/${surveyId}`)).Categories[0]!.Questions.find((q) => q.Title === "Befund")!.Id}&patientDataId=${caseState.PatientDataId}`,
  );
  expect(files).toHaveLength(1);
  for (let i = 0; i < 2; i++) {
    const { Url } = await api<{ Url: string }>(
      page,
      "GET",
      `/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${files[0]!.Id}`,
    );
    for (const copy of ["a", "b"] as const) {
      const direct = Url.replace(topology.url, topology.copyUrl(copy));
      const res = await fetch(direct);
      expect(res.status, `copy ${copy}`).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(png())).toBe(true);
    }
  }
  // From the database: neither copy keeps the file in a folder of its own.
  for (const copy of ["a", "b"] as const) {
    expect(fs.existsSync(path.join(topology.dir, `data-${copy}`, "attachments")), `copy ${copy}`).toBe(false);
  }

  // Every question kind, on the demo survey.
  await page.goto("/surveys");
  await page.getByTestId("survey-row").filter({ hasText: HEART }).locator("summary").click();
  await page
    .getByTestId("survey-row")
    .filter({ hasText: HEART })
    .getByRole("link", { name: "Umfrage ausfüllen" })
    .click();
  await startCase(page, "DEPLOY_2");
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
  await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 bis 79").check();
  await page.getByRole("button", { name: "Weiter" }).click();
  await question(page, "Wie stark ist die Atemnot bei Belastung?").getByLabel("stark", { exact: true }).check();
  await question(page, "Haben Sie Wassereinlagerungen bemerkt?").getByLabel("Ja").check();
  await question(page, "Wo genau?").getByLabel("Knöchel").check();
  await question(page, "Wo genau?").getByLabel("Bauch").check();
  await question(page, "Schwangerschaft ausgeschlossen?").getByLabel("Ja").check();
  const text = question(page, "Weitere Beschwerden").getByRole("textbox");
  await text.fill("Müdigkeit am Abend");
  await text.blur();
  await page.getByRole("button", { name: "Nächste Kategorie" }).click();
  const weight = question(page, "Körpergewicht").getByRole("textbox");
  await weight.fill("80.55");
  await weight.blur();
  const pressure = question(page, "Systolischer Blutdruck").getByRole("textbox");
  await pressure.fill("135");
  await pressure.blur();
  const when = question(page, "Zeitpunkt der Messung").getByRole("textbox");
  await when.fill("01.02.2026 10:30");
  await when.blur();
  await page.getByRole("button", { name: "Nächste Kategorie" }).click();
  await question(page, "Ab welcher Gewichtszunahme sollte die Praxis informiert werden?")
    .getByLabel("2 kg in 3 Tagen")
    .check();
  const heartId = Number(/\/survey\/(\d+)\/fill/.exec(page.url())![1]);
  await expect
    .poll(
      async () =>
        (await api<unknown[]>(page, "GET", `/question-responses/?surveyId=${heartId}&patientId=DEPLOY_2`)).length,
    )
    .toBe(9);
  await page.getByTestId("submit-survey").click();
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();

  // Offline: the proxy goes away; a case is filled on the device and synced when it comes back.
  await page.goto(`/survey/${surveyId}`);
  await topology.proxyDown();
  await page.context().setOffline(true);
  await page.reload().catch(() => undefined);
  await startCase(page, "DEPLOY_OFF");
  await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
  await question(page, "Befinden").getByLabel("schlecht").check();
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
  await page.getByTestId("submit-survey").click();
  await expect(page).toHaveURL(/page=done/);
  await topology.proxyUp();
  await page.context().setOffline(false);
  await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
  const synced = await api<{ State: string }>(page, "GET", `/patients?patientId=DEPLOY_OFF&surveyId=${surveyId}`);
  expect(synced.State).toBe("Closed");

  // Statistics of the demo survey.
  await page.goto(`/survey/${heartId}/statistics`);
  await expect(page.getByRole("heading", { level: 1, name: HEART })).toBeVisible();
  await expect(page.getByText(/abgeschlossen von/).first()).toBeVisible();

  // Working on until the session has outlived several access tokens: pages and writes keep working. At least
  // four lifetimes, and on until the third renewal: a busy machine spends lifetimes on the steps above (the
  // offline part renews once however long it lasts).
  const walkLogs = (name: "a" | "b") => topology.logs[name].slice(logFrom[name]);
  const renewed = () => [...walkLogs("a"), ...walkLogs("b")].filter((l) => l.includes('"msg":"auth.renewed"')).length;
  const age = () => Date.now() - started;
  while (age() < 4 * TOKEN_SECONDS * 1000 || (renewed() < 3 && age() < 8 * TOKEN_SECONDS * 1000)) {
    await page.goto("/surveys");
    await expect(page.getByTestId("greeting")).toContainText(accounts.admin.fullName);
    const late = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Später ${Date.now()}` });
    await api(page, "POST", "/categories", { SurveyId: late.Id, Title: "K" });
    await page.waitForTimeout(TOKEN_SECONDS * 600);
  }
  expect(renewed()).toBeGreaterThanOrEqual(3);

  // Sign out: the next visit asks for the sign-in again.
  await page.getByRole("button", { name: "Abmelden" }).first().click();
  await expect(page.locator("#username")).toBeVisible();

  // Both copies answered, no request met a server error at the proxy, and no copy wrote an unhandled error.
  const share = { a: served(walkLogs("a"), "a"), b: served(walkLogs("b"), "b") };
  expect(share.a).toBeGreaterThan(20);
  expect(share.b).toBeGreaterThan(20);
  const access = fs.readFileSync(accessLog, "utf8").slice(accessFrom).trim().split("\n");
  const failures = access.filter((line) => /^\S+ \S+ \S+ \S+ 5\d\d /.test(line));
  expect(failures).toEqual([]);
  for (const name of ["a", "b"] as const) expect(walkLogs(name).filter((l) => l.includes("unhandled"))).toEqual([]);
});

test("page form posts over https through the proxy answer their redirect, with Secure cookies", async ({
  topology,
}) => {
  const language = await postTls(topology, "/language", "locale=en-US&redirectTo=%2Fsurveys");
  expect(language.status).toBe(302);
  expect(language.location).toBe("/surveys");
  expect(language.cookies.join("\n")).toMatch(/Secure/);

  // Signed in over plain http (the provider's form), then the same session's cookie over https.
  const browser = await chromium.launch(config.use?.launchOptions);
  try {
    const context = await browser.newContext({ baseURL: topology.url, locale: "de-DE" });
    const page = await context.newPage();
    await page.goto("/surveys");
    await page.locator("#username").fill(accounts.editor.username);
    await page.locator("#password").fill(accounts.editor.password);
    await page.locator("button[type=submit]").click();
    await expect(page.getByTestId("greeting")).toBeVisible();
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const before = await topology.query<{ n: number }>("select count(*)::int as n from surveys");
    const create = await postTls(
      topology,
      "/surveys",
      "intent=create&formKey=0123456789abcdef0123456789abcdef",
      cookie,
    );
    expect(create.status).toBe(302);
    expect(create.location).toMatch(/^\/survey\/\d+\/edit#start$/);
    // Sent again (the answer was lost): the same survey, not a second one.
    const again = await postTls(topology, "/surveys", "intent=create&formKey=0123456789abcdef0123456789abcdef", cookie);
    expect(again.location).toBe(create.location);
    const after = await topology.query<{ n: number }>("select count(*)::int as n from surveys");
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  } finally {
    await browser.close();
  }
});
