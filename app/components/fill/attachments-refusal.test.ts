import { describe, expect, it } from "vitest";
import { linkRefusalKey } from "./Attachments";

const refusal = (status: number, type = "X") => ({ ok: false as const, status, type, message: "" });

describe("an upload refused on a patient's link page", () => {
  it("says the link no longer holds, never a staff page about signing in or rights", () => {
    for (const status of [401, 403, 404, 409]) expect(linkRefusalKey(refusal(status))).toBe("attachments.linkInvalid");
  });

  it("says a lost network as such, and anything else in the patient's words", () => {
    expect(linkRefusalKey(refusal(0, "NETWORK"))).toBe("errors.network");
    expect(linkRefusalKey(refusal(413, "PAYLOAD_TOO_LARGE"))).toBe("attachments.refused");
    expect(linkRefusalKey(refusal(500, "UNEXPECTED"))).toBe("attachments.refused");
  });
});
