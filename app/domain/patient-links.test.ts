import { describe, expect, it } from "vitest";
import {
  CODE_ALPHABET,
  codeBits,
  formatCode,
  isLive,
  linkExpiry,
  linkState,
  normalizeCode,
  surveyTakesLinks,
} from "./patient-links";
import { respondentName, respondentOf, respondentOfActor, respondentActorSub, respondentColumns } from "./respondents";

const now = new Date("2026-12-01T10:00:00.000Z");
const base = {
  expires_at: "2026-12-08T10:00:00.000Z",
  opened_at: null,
  answered_at: null,
  submitted_at: null,
  revoked_at: null,
};

describe("a link's state", () => {
  it("goes made, opened, in progress, and ends submitted, expired or revoked", () => {
    expect(linkState(base, now)).toBe("made");
    expect(linkState({ ...base, opened_at: "2026-12-01T09:00:00.000Z" }, now)).toBe("opened");
    expect(linkState({ ...base, opened_at: "x", answered_at: "y" }, now)).toBe("inProgress");
    expect(linkState({ ...base, answered_at: "y", submitted_at: "z" }, now)).toBe("submitted");
    expect(linkState({ ...base, expires_at: now.toISOString() }, now)).toBe("expired");
    // Revoked and submitted stay what they are after the expiry.
    expect(linkState({ ...base, revoked_at: "r", expires_at: "2026-01-01T00:00:00.000Z" }, now)).toBe("revoked");
    expect(linkState({ ...base, submitted_at: "s", expires_at: "2026-01-01T00:00:00.000Z" }, now)).toBe("submitted");
    expect(["made", "opened", "inProgress"].every((s) => isLive(s as never))).toBe(true);
    expect(["submitted", "expired", "revoked"].some((s) => isLive(s as never))).toBe(false);
  });

  it("works only on a running survey", () => {
    expect(surveyTakesLinks("Active")).toBe(true);
    for (const s of ["Draft", "Pending", "Ended", "Closed", "Archived"] as const)
      expect(surveyTakesLinks(s)).toBe(false);
  });

  it("expires after 7 days unless said, at most 30", () => {
    expect(linkExpiry(now)).toBe("2026-12-08T10:00:00.000Z");
    expect(linkExpiry(now, 30)).toBe("2026-12-31T10:00:00.000Z");
    expect(() => linkExpiry(now, 31)).toThrow(RangeError);
    expect(() => linkExpiry(now, 0)).toThrow(RangeError);
  });
});

describe("the short code", () => {
  it("has no symbols that read alike, and at least 60 bits", () => {
    for (const ch of "0O1IL2Z5S8BUVQG") expect(CODE_ALPHABET).not.toContain(ch);
    expect(new Set(CODE_ALPHABET).size).toBe(CODE_ALPHABET.length);
    expect(codeBits()).toBeGreaterThanOrEqual(60);
  });

  it("is read without case, spaces or separators, and shown in groups", () => {
    const code = "K7QX".replace("Q", "A") + "M4RT" + "9CDE" + "FHJN";
    expect(normalizeCode(code.toLowerCase())).toBe(code);
    expect(normalizeCode(" k7ax-m4rt 9cde_fhjn ")).toBe(code);
    expect(formatCode(code)).toBe("K7AX-M4RT-9CDE-FHJN");
    expect(normalizeCode(formatCode(code))).toBe(code);
    expect(normalizeCode("K7AX-M4RT-9CDE")).toBeNull();
    expect(normalizeCode("K7AX-M4RT-9CDE-FHJ0")).toBeNull();
  });
});

describe("who answered", () => {
  const t = (key: string, o?: Record<string, unknown>) => `${key}|${JSON.stringify(o ?? {})}`;
  it("is named in words, and kept in a case's columns and an audit row's actor", () => {
    expect(respondentName({ kind: "link", linkId: 12 }, t)).toBe('respondent.link|{"id":12}');
    expect(respondentName({ kind: "handover", staffUserId: 3, staffName: "Dr. Anna Schneider" }, t)).toBe(
      'respondent.handover|{"name":"Dr. Anna Schneider"}',
    );
    expect(respondentName({ kind: "staff" }, t)).toBe("respondent.staff|{}");
    for (const r of [
      { kind: "link", linkId: 12 },
      { kind: "handover", staffUserId: 3, staffName: "A" },
      { kind: "staff" },
    ] as const) {
      expect(respondentOf(respondentColumns(r), "A")).toEqual(r);
    }
    expect(respondentOfActor(respondentActorSub({ kind: "link", linkId: 7 }))).toEqual({ kind: "link", linkId: 7 });
    expect(respondentOfActor("idp|alice")).toBeNull();
  });
});
