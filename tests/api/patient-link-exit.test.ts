import { describe, expect, it } from "vitest";
import { openLink } from "~/server/services/links/open.server";
import { dialects } from "../support/databases";
import { asPatient, linkTestProvider } from "./link-caller";
import { caseRow, json, preliminaryOption, type FillWorld, useFillWorld } from "./fill-support";

/**
 * Exit answers and a patient's link (docs/decisions/057-patient-links.md, issue 46): the preliminary questions,
 * where the survey's exit answers end a case before its questionnaire, stay with staff. The link's caller
 * neither reads nor writes them; a case staff ended by such an answer refuses its link as used.
 */

const idp = linkTestProvider();

describe.each(dialects)("exit answers and a patient's link on %s", (kind) => {
  const world = useFillWorld(kind, idp);

  /** "männlich" of the heart survey's preliminary question, made an exit answer. */
  async function exitOption(w: FillWorld) {
    const exit = await preliminaryOption(w.db, w.a.heart, "männlich");
    await w.db
      .updateTable("patient_form_answer_options")
      .set({ is_exit_answer: 1 })
      .where("id", "=", exit.optionId)
      .execute();
    return exit;
  }

  it("the link's caller neither reads nor writes a preliminary answer, an exit answer above all", async () => {
    const w = world();
    const exit = await exitOption(w);
    const made = await json<{ Token: string }>(
      await w.call("user", "POST", "/patient-links", { SurveyId: w.a.heart, PatientId: "LINK_EXIT_1" }),
    );
    const patient = await asPatient(w, made.Token);
    const survey = await json<{ PatientForm: unknown[] }>(await patient("GET", `/surveys/${w.a.heart}`));
    expect(survey.PatientForm).toEqual([]);
    const write = await patient("POST", "/attribute-responses", {
      PatientId: "LINK_EXIT_1",
      SurveyId: w.a.heart,
      PatientFormAttributeId: exit.attributeId,
      PatientFormAnswerOptionId: exit.optionId,
    });
    expect([403, 404], await write.text()).toContain(write.status);
    const read = await patient("GET", `/attribute-responses/?surveyId=${w.a.heart}&patientId=LINK_EXIT_1`);
    expect([403, 404]).toContain(read.status);
    await read.arrayBuffer();
    // Nothing was recorded, and the case is still open for the patient.
    const given = await json<unknown[]>(
      await w.call("user", "GET", `/attribute-responses/?surveyId=${w.a.heart}&patientId=LINK_EXIT_1`),
    );
    expect(given).toEqual([]);
    expect(await caseRow(w.db, w.a.heart, "LINK_EXIT_1")).toMatchObject({ state: "Open" });
    expect((await patient("GET", `/surveys/${w.a.heart}`)).status).toBe(200);
  });

  it("a case staff ended by an exit answer refuses its link as used, and the patient's cookie with it", async () => {
    const w = world();
    const exit = await exitOption(w);
    const made = await json<{ Token: string }>(
      await w.call("user", "POST", "/patient-links", { SurveyId: w.a.heart, PatientId: "LINK_EXIT_2" }),
    );
    const patient = await asPatient(w, made.Token);
    // Staff choose the exit answer and confirm it: it is recorded, and the case ends as a submit ends it.
    const chosen = await w.call("user", "POST", "/attribute-responses", {
      PatientId: "LINK_EXIT_2",
      SurveyId: w.a.heart,
      PatientFormAttributeId: exit.attributeId,
      PatientFormAnswerOptionId: exit.optionId,
    });
    expect(chosen.status, await chosen.clone().text()).toBeLessThan(300);
    const closed = await w.call("user", "POST", `/patients/close?surveyId=${w.a.heart}&patientId=LINK_EXIT_2`);
    expect(closed.status).toBe(204);
    expect(await caseRow(w.db, w.a.heart, "LINK_EXIT_2")).toMatchObject({ state: "Closed" });
    expect((await openLink(w.db, { token: made.Token }, "10.0.0.3")).kind).toBe("used");
    expect((await patient("GET", `/surveys/${w.a.heart}`)).status).toBe(401);
  });
});
