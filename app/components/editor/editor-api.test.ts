import { describe, expect, it } from "vitest";
import { categoriesApi } from "~/contracts/categories";
import { writeKeys } from "./editor-api";

describe("writeKeys", () => {
  it("sends a POST whose answer was lost again with the same key, and a settled one with a new key", () => {
    const keys = writeKeys();
    const sent = { body: { SurveyId: 1, Title: "Anamnese" } };
    const create = categoriesApi.create;
    const first = keys.keyFor(create, sent)!;
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    keys.settle(create, sent, { ok: false, status: 0 });
    expect(keys.keyFor(create, sent)).toBe(first);
    keys.settle(create, sent, { ok: false, status: 502 });
    expect(keys.keyFor(create, { body: { ...sent.body } })).toBe(first);
    keys.settle(create, sent, { ok: true });
    const next = keys.keyFor(create, sent)!;
    expect(next).not.toBe(first);
    keys.settle(create, sent, { ok: false, status: 409 });
    expect(keys.keyFor(create, sent)).not.toBe(next);
  });

  it("keys each request apart, and no other method", () => {
    const keys = writeKeys();
    const a = keys.keyFor(categoriesApi.create, { body: { SurveyId: 1, Title: "A" } });
    const b = keys.keyFor(categoriesApi.create, { body: { SurveyId: 1, Title: "B" } });
    expect(a).not.toBe(b);
    // The same body to another place is another request.
    const moveA = keys.keyFor(categoriesApi.reorder, { params: { id: 1 }, query: { newPosition: 0, surveyId: 1 } });
    const moveB = keys.keyFor(categoriesApi.reorder, { params: { id: 2 }, query: { newPosition: 0, surveyId: 1 } });
    expect(moveA).not.toBe(moveB);
    expect(keys.keyFor(categoriesApi.update, { params: { id: 1 }, body: { Title: "A" } })).toBeUndefined();
    expect(keys.keyFor(categoriesApi.remove, { query: { categoryId: 1, surveyId: 1 } })).toBeUndefined();
  });
});
