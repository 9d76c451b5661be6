import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";

/**
 * A person the product has not met yet: a page's or a device's first burst of parallel calls each finds no
 * record and makes one. Each must be answered, and one record (with its teams and one audit row) kept.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("a new person's first parallel calls on %s", (kind) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi(kind, { idp });
  });
  afterAll(async () => {
    await api.close();
  });

  it.each(["user", "editor", "admin"])("answers all 12 of %s's first calls 200, with one record", async (who) => {
    const token = await api.token(who);
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.call("GET", "/users/current", { token })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const ids = new Set((await Promise.all(answers.map((a) => a.json()))).map((me) => me.SurveyUserDataId));
    expect(ids.size).toBe(1);
    const db = api.ctx.db;
    const rows = await db.selectFrom("users").select("id").where("sub", "=", who).execute();
    expect(rows).toHaveLength(1);
    const teams = await db.selectFrom("user_teams").select("team_id").where("user_id", "=", rows[0]!.id).execute();
    const claimed = (await api.call("GET", "/users/current", { token }).then((r) => r.json())).Teams;
    expect(teams.length).toBe(claimed.length);
    const created = await db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "user.create")
      .where("entity_id", "=", String(rows[0]!.id))
      .execute();
    expect(created).toHaveLength(1);
  });
});
