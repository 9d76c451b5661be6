import { describe, expect, it } from "vitest";
import { writeKeys } from "./editor-api";

describe("writeKeys", () => {
  it("sends a POST whose answer was lost again with the same key, and a settled one with a new key", () => {
    const keys = writeKeys();
    const body = { SurveyId: 1, Title: "Anamnese" };
    const first = keys.keyFor("POST", "/categories", body)!;
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    keys.settle("POST", "/categories", body, { ok: false, status: 0 });
    expect(keys.keyFor("POST", "/categories", body)).toBe(first);
    keys.settle("POST", "/categories", body, { ok: false, status: 502 });
    expect(keys.keyFor("POST", "/categories", { ...body })).toBe(first);
    keys.settle("POST", "/categories", body, { ok: true });
    const next = keys.keyFor("POST", "/categories", body)!;
    expect(next).not.toBe(first);
    keys.settle("POST", "/categories", body, { ok: false, status: 409 });
    expect(keys.keyFor("POST", "/categories", body)).not.toBe(next);
  });

  it("keys each request apart, and no other method", () => {
    const keys = writeKeys();
    const a = keys.keyFor("POST", "/categories", { Title: "A" });
    const b = keys.keyFor("POST", "/categories", { Title: "B" });
    expect(a).not.toBe(b);
    expect(keys.keyFor("PUT", "/categories/1", { Title: "A" })).toBeUndefined();
    expect(keys.keyFor("DELETE", "/categories", undefined)).toBeUndefined();
  });
});
