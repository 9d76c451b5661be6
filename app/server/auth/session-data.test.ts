import { describe, expect, it } from "vitest";
import { storedData } from "./session.server";

describe("storedData", () => {
  it("reads a session stored with the record id under its earlier name as signed in", () => {
    const data = storedData(JSON.stringify({ userId: 7, accessToken: "a.b.c", accessTokenExpiresAt: 1 }));
    expect(data).toEqual({ surveyUserDataId: 7, accessToken: "a.b.c", accessTokenExpiresAt: 1 });
  });

  it("keeps a session stored with surveyUserDataId as it is", () => {
    const stored = { surveyUserDataId: 3, accessToken: "t", accessTokenExpiresAt: 2 };
    expect(storedData(JSON.stringify(stored))).toEqual(stored);
  });
});
