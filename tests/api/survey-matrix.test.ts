import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { addQuestion, teamId } from "../support/surveys";

/**
 * Every survey endpoint for every demo role, on a Draft and on an Active survey, and with team
 * permissions that leave a role's holder out. The expected status of each cell is written out.
 */
type Who = "editor" | "approver" | "admin" | "user" | "outsider" | "anonymous";
const people: Who[] = ["editor", "approver", "admin", "user", "outsider", "anonymous"];

interface Case {
  name: string;
  call: (id: number) => [method: string, path: string, body?: unknown];
  draft: Record<Who, number>;
  active: Record<Who, number>;
}

const row = (editor: number, approver: number, admin: number, user: number): Record<Who, number> => ({
  editor,
  approver,
  admin,
  user,
  outsider: 403,
  anonymous: 401,
});

const cases: Case[] = [
  {
    name: "GET /surveys/:id",
    call: (id) => ["GET", `/surveys/${id}`],
    draft: row(200, 200, 200, 404),
    active: row(200, 200, 200, 200),
  },
  {
    name: "PUT /surveys/:id",
    call: (id) => ["PUT", `/surveys/${id}`, { Description: `d${Math.random()}` }],
    draft: row(200, 403, 200, 404),
    active: row(409, 403, 409, 403),
  },
  {
    name: "POST /surveys/:id/approve",
    call: (id) => ["POST", `/surveys/${id}/approve`],
    draft: row(403, 204, 204, 404),
    active: row(403, 409, 409, 403),
  },
  {
    name: "PUT change-status 1",
    call: (id) => ["PUT", `/surveys/${id}/change-status?newStatusId=1`],
    draft: row(403, 409, 409, 404),
    active: row(403, 204, 204, 403),
  },
  {
    name: "POST /surveys/:id/clone",
    call: (id) => ["POST", `/surveys/${id}/clone`],
    draft: row(201, 403, 201, 403),
    active: row(201, 403, 201, 403),
  },
  {
    name: "GET benchmarkable",
    call: (id) => ["GET", `/surveys/benchmarkable?surveyId=${id}`],
    draft: row(200, 200, 200, 404),
    active: row(200, 200, 200, 200),
  },
  {
    name: "POST /surveys/:id/archive",
    call: (id) => ["POST", `/surveys/${id}/archive`],
    draft: row(204, 403, 204, 404),
    active: row(204, 403, 204, 403),
  },
];

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("survey permission matrix on %s", (kind) => {
  let api: ApiHarness;
  const tokens: Partial<Record<Who, string>> = {};

  beforeAll(async () => {
    api = await startApi(kind, { idp });
    for (const who of people) {
      if (who === "anonymous") continue;
      tokens[who] = await api.token(who);
      await api.call("GET", "/users/current", { token: tokens[who] });
    }
  });
  afterAll(async () => {
    await api.close();
  });

  /** A fresh survey per cell, so that one call's effect never decides another's outcome. */
  async function fresh(state: "draft" | "active") {
    const created = await (
      await api.call("POST", "/surveys", { token: tokens.admin, body: { Title: "Matrix" } })
    ).json();
    await addQuestion(api.testDb.db, created.Id);
    if (state === "active") await api.call("POST", `/surveys/${created.Id}/approve`, { token: tokens.admin });
    return created.Id as number;
  }

  for (const c of cases) {
    for (const state of ["draft", "active"] as const) {
      it(`${c.name} on a ${state} survey`, async () => {
        const got: Record<string, number> = {};
        for (const who of people) {
          const [method, path, body] = c.call(await fresh(state));
          got[who] = (await api.call(method, path, { token: tokens[who as Exclude<Who, "anonymous">], body })).status;
        }
        expect(got).toEqual(c[state]);
      });
    }
  }

  it("team permissions leave out editors, approvers and users of other teams", async () => {
    const station = await teamId(api.testDb.db, "Station 3A");
    const id = await fresh("draft");
    await api.call("PUT", `/surveys/${id}`, {
      token: tokens.admin,
      body: { EditorTeamPermissions: [station], ApproverTeamPermissions: [station], UserTeamPermissions: [station] },
    });
    // editor and approver are in "Studienzentrum" only; admin and user are in "Station 3A".
    expect((await api.call("GET", `/surveys/${id}`, { token: tokens.editor })).status).toBe(404);
    expect((await api.call("POST", `/surveys/${id}/approve`, { token: tokens.approver })).status).toBe(404);
    expect((await api.call("POST", `/surveys/${id}/approve`, { token: tokens.admin })).status).toBe(204);
    expect((await api.call("GET", `/surveys/${id}`, { token: tokens.user })).status).toBe(200);
    expect((await api.call("GET", `/surveys/${id}`, { token: tokens.approver })).status).toBe(404);
  });
});
