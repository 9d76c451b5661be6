import { expect, test } from "./test";
import { api } from "./api";
import { download, goOffline, goOnline, offlineRig, question, signInAt } from "./offline-support";
import { arabic, german, translatedSurvey, turkish } from "./language-support";

test("offline, a case started in Arabic and switched to Turkish midway is synced with its language", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const tag = `offline ${Date.now()}`;
    const id = await translatedSurvey(page, tag);
    await page.goto(rig.url("/surveys"));
    await download(page, `${german.title} ${tag}`);

    await goOffline(context, rig.gate);
    const row = page.getByTestId("survey-row").filter({ hasText: `${german.title} ${tag}` });
    await row.locator("summary").click();
    await row.getByRole("link", { name: "Umfrage ausfüllen" }).click();
    await page.getByTestId("case-language").selectOption("ar");
    const patientId = `OFF_AR_${Date.now()}`;
    await page
      .getByLabel(/Patienten/)
      .first()
      .fill(patientId);
    await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
    await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));

    // Built on the device, in Arabic: its words came with the download.
    const region = page.getByTestId("fill-region");
    await expect(region).toHaveAttribute("dir", "rtl");
    await expect(page.getByTestId("fill-offline-notice")).toHaveText(
      "لا يوجد اتصال: تُحفظ الإجابات على هذا الجهاز وتُزامَن عند عودة الشبكة.",
    );
    await page.goto(rig.url(`/survey/${id}/fill/${patientId}?page=questionnaire`));
    await expect(region).toHaveAttribute("lang", "ar");
    await question(page, arabic.choice).getByLabel(arabic.answers[1], { exact: true }).check();
    await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");

    // Switched midway, still offline: the page keeps its answers and speaks Turkish.
    await page.getByTestId("fill-language").selectOption("tr");
    await page.getByRole("button", { name: "تغيير اللغة" }).click();
    await expect(region).toHaveAttribute("lang", "tr");
    await expect(region).toHaveAttribute("dir", "ltr");
    await expect(question(page, turkish.choice).getByLabel(turkish.answers[1], { exact: true })).toBeChecked();
    await question(page, turkish.free).getByRole("textbox").fill("Yorgunluk");
    await question(page, turkish.free).getByRole("textbox").blur();
    await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
    // A reload on the device opens it in Turkish again.
    await page.reload();
    await expect(region).toHaveAttribute("lang", "tr");
    await expect(question(page, turkish.free).getByRole("textbox")).toHaveValue("Yorgunluk");

    // Back online: the sync puts the case on the server, in Turkish, with its answers.
    await goOnline(context, rig.gate);
    await expect
      .poll(
        async () =>
          (
            await api<{ State: string; Language?: string }>(
              page,
              "GET",
              `/patients?patientId=${patientId}&surveyId=${id}`,
            )
          ).Language ?? null,
        { timeout: 30_000 },
      )
      .toBe("tr");
    const answers = await api<{ TextResponse?: string }[]>(
      page,
      "GET",
      `/question-responses/?surveyId=${id}&patientId=${patientId}`,
    );
    expect(answers.map((a) => a.TextResponse).filter(Boolean)).toEqual(["Yorgunluk"]);
  } finally {
    await rig.dispose(context);
  }
});
