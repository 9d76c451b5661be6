import { openApiContract } from "~/contracts/health";
import { patientsApi } from "~/contracts/patients";
import { surveysApi } from "~/contracts/surveys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, apiClient } from "~/server/api-client.server";
import { InProcessRead } from "~/server/api/in-process.server";
import { setContext } from "~/server/context.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { withRequestContext } from "~/server/log.server";
import { dialects } from "../support/databases";
import { useFillWorld } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * The pages' reads of the API in-process (app/server/api/in-process.server.ts): handed a plain request of
 * address, method and headers, and answered with the JSON text the API wrote. The answer is the one the same
 * read gets as a web Request; refusals, answers that are not the endpoints' JSON and writes work as before.
 */
describe.each(dialects)("in-process reads of the API on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  beforeAll(() => setContext(world().api.ctx));
  afterAll(() => setContext(undefined));
  const token = (who: string) => world().api.token(who);
  const headersOf = async (who: string) => ({
    authorization: `Bearer ${await token(who)}`,
    accept: "application/json",
  });

  it("answers a plain read with the bytes, status and headers a web Request gets, and hands over the text", async () => {
    const api = world().api.ctx.api;
    const path = `/api/surveys/${world().a.heart}`;
    const read = new InProcessRead(`http://localhost${path}`, await headersOf("editor"));
    const res = await api.fetch(read.asRequest());
    const web = await api.request(path, { headers: await headersOf("editor") });
    expect(res.status).toBe(200);
    const text = await web.text();
    expect(read.answerText).toBe(text);
    expect(await res.text()).toBe(text);
    for (const name of ["content-type", "cache-control"]) expect(res.headers.get(name)).toBe(web.headers.get(name));
    expect(JSON.parse(text)).toMatchObject({ Id: world().a.heart, Status: "Active" });
  });

  it("gives the pages' client the API's answers, its refusals as ApiError, and other answers read as before", async () => {
    const id = world().a.heart;
    const client = apiClient(await token("editor"));
    const viaClient = await client.call(surveysApi.get, { params: { id } });
    const direct = await (await world().call("editor", "GET", `/surveys/${id}`)).json();
    expect(viaClient).toEqual(direct);
    const missing = { params: { id: 999999 } };
    await expect(client.call(surveysApi.get, missing)).rejects.toMatchObject({ status: 404, type: "SURVEY_NOT_FOUND" });
    await expect(client.call(surveysApi.get, missing)).rejects.toBeInstanceOf(ApiError);
    // The OpenAPI document is answered outside the endpoints' JSON: read from the Response.
    const openapi = await client.call(openApiContract);
    expect(openapi.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.paths)).toContain("/surveys/{id}");
  });

  it("reads again what the same request read before a write", async () => {
    const surveyId = world().a.heart;
    const client = apiClient(await token("user"));
    const query = { patientId: "INPROC1", surveyId };
    const states = await withRequestContext(
      "page-in-process",
      async () => {
        const before = await client.call(patientsApi.record, { query });
        await client.call(patientsApi.add, { query });
        const after = await client.call(patientsApi.record, { query });
        return [before.State, after.State];
      },
      true,
    );
    expect(states).toEqual(["Nonexistent", "Open"]);
  });
});
