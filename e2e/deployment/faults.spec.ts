import { caller, signIn } from "./client";
import { expect, test } from "./fixture";
import type { Topology } from "./topology";

/**
 * Faults while people work: writes stream through the proxy from several clients, which retry a write
 * whose answer did not come (a dropped connection, a 502 or 503) with the same Idempotency-Key, as a browser
 * or a field device does. Then the counts: every write acknowledged is stored, nothing is stored twice,
 * and the copies serve on without a restart by hand (but the one that was killed).
 */

interface Tally {
  sent: number;
  acknowledged: number;
  retried: number;
  refusals: Record<string, number>;
}

function newTally(): Tally {
  return { sent: 0, acknowledged: 0, retried: 0, refusals: {} };
}

/** Sends one write until it is acknowledged, with the same key each time; answers its JSON. */
async function untilAcknowledged(
  tally: Tally,
  send: () => Promise<Response>,
): Promise<{ status: number; body: unknown }> {
  for (let attempt = 0; attempt < 60; attempt++) {
    tally.sent++;
    if (attempt > 0) tally.retried++;
    let res: Response;
    try {
      res = await send();
    } catch {
      tally.refusals.network = (tally.refusals.network ?? 0) + 1;
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const text = await res.text();
    if (res.ok) {
      tally.acknowledged++;
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }
    tally.refusals[res.status] = (tally.refusals[res.status] ?? 0) + 1;
    if (res.status === 503)
      expect(JSON.parse(text)).toEqual({ Type: "SERVICE_UNAVAILABLE", Error: expect.any(String) });
    else expect([502, 504], `unexpected ${res.status}: ${text}`).toContain(res.status);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("a write was never acknowledged");
}

/**
 * Clients creating surveys (each with its own key) and recording answers (each patient from one client
 * only, so the last acknowledged text of a patient is the one stored) while `fault` runs.
 */
async function workload(topology: Topology, label: string, fault: () => Promise<void>) {
  const cookie = await signIn(topology.url, "admin");
  const call = caller(topology.url, cookie);
  const survey = await call("POST", "/surveys", { Title: `${label} Umfrage` });
  const category = await call("POST", "/categories", { SurveyId: survey.Id, Title: "A" });
  const text = await call("POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "T",
    Type: "FreeText",
  });
  await call("POST", `/surveys/${survey.Id}/approve`);
  const PATIENTS = 24;
  const tally = newTally();
  const post = (path: string, body: unknown, key?: string) =>
    fetch(`${topology.url}/api${path}`, {
      method: "POST",
      headers: {
        cookie,
        origin: topology.url,
        "content-type": "application/json",
        ...(key ? { "idempotency-key": key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // Cases are started with keys too: a retried start finds its case.
  await Promise.all(
    Array.from({ length: PATIENTS }, (_, i) =>
      untilAcknowledged(tally, () =>
        post(`/patients/add?patientId=${label}_${i}&surveyId=${survey.Id}`, undefined, `${label}-case-${i}`),
      ),
    ),
  );

  let running = true;
  const acknowledgedText = new Map<number, string>();
  const created = new Set<string>();
  const lane = async (l: number) => {
    for (let n = 0; running; n++) {
      if (n % 3 === 0) {
        const title = `${label} L${l} N${n}`;
        await untilAcknowledged(tally, () => post("/surveys", { Title: title }, `${label}-survey-${l}-${n}`));
        created.add(title);
      } else {
        const patient = l * 3 + (n % 3);
        const value = `lane ${l} write ${n}`;
        await untilAcknowledged(tally, () =>
          post("/question-responses/free-text", {
            PatientId: `${label}_${patient}`,
            SurveyId: survey.Id,
            QuestionId: text.Id,
            TextResponse: value,
          }),
        );
        acknowledgedText.set(patient, value);
      }
    }
  };
  const lanes = Array.from({ length: 8 }, (_, l) => lane(l));
  await new Promise((r) => setTimeout(r, 800));
  await fault();
  await new Promise((r) => setTimeout(r, 1500));
  running = false;
  await Promise.all(lanes);

  // Stored: each survey title once, each case once, each acknowledged answer (or a later one of its lane).
  const surveys = await topology.query<{ title: string; n: number }>(
    "select title, count(*)::int as n from surveys where title like $1 group by title",
    [`${label} L%`],
  );
  const stored = new Map(surveys.map((s) => [s.title, s.n]));
  for (const title of created) expect(stored.get(title), title).toBe(1);
  const cases = await topology.query<{ n: number }>(
    "select count(*)::int as n from patient_data where survey_id = $1",
    [survey.Id],
  );
  expect(cases[0]!.n).toBe(PATIENTS);
  const answers = await topology.query<{ patient_id: string; text_response: string }>(
    `select pd.patient_id, r.text_response from question_responses r join patient_data pd on pd.id = r.patient_data_id
     where r.question_id = $1`,
    [text.Id],
  );
  const texts = new Map(answers.map((a) => [a.patient_id, a.text_response]));
  for (const [patient, value] of acknowledgedText) {
    const got = texts.get(`${label}_${patient}`);
    expect(got, `patient ${patient}`).toBeDefined();
    const [, lane, , n] = value.split(" ");
    const [, gotLane, , gotN] = got!.split(" ");
    expect(gotLane).toBe(lane);
    expect(Number(gotN)).toBeGreaterThanOrEqual(Number(n));
  }
  test.info().annotations.push({
    type: "counts",
    description: `${label}: sent ${tally.sent}, acknowledged ${tally.acknowledged}, retried ${tally.retried}, refused ${JSON.stringify(tally.refusals)}; stored ${created.size} surveys once each, ${PATIENTS} cases, ${acknowledgedText.size} answers`,
  });
  console.log(test.info().annotations.at(-1)!.description);
  return tally;
}

test("a copy killed (SIGKILL) during writes and started again: nothing acknowledged lost, nothing doubled", async ({
  topology,
}) => {
  const tally = await workload(topology, "KILL", async () => {
    await topology.killCopy("a");
    await new Promise((r) => setTimeout(r, 1500));
    await topology.startCopy("a");
  });
  expect(topology.alive("a")).toBe(true);
  expect(topology.alive("b")).toBe(true);
  expect(tally.acknowledged).toBeGreaterThan(50);
});

test("the database's connections cut during writes: 503s, retries, recovery without a restart", async ({
  topology,
}) => {
  const tally = await workload(topology, "DROP", async () => {
    for (let k = 0; k < 4; k++) {
      await topology.dropDatabaseConnections();
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  expect(topology.alive("a")).toBe(true);
  expect(topology.alive("b")).toBe(true);
  expect(tally.acknowledged).toBeGreaterThan(50);
  for (const name of ["a", "b"] as const) {
    expect((await fetch(`${topology.copyUrl(name)}/api/health/ready`)).status).toBe(200);
    expect(topology.logs[name].filter((l) => l.includes("api.unhandled"))).toEqual([]);
  }
});
