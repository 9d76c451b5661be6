import { describe, expect, it } from "vitest";
import { pickLocale, textsFor } from "./i18n.server";
import { demoAccounts } from "./index.server";
import { verifyCredentials } from "./accounts.server";

describe("pickLocale", () => {
  it("defaults to German", () => {
    expect(pickLocale(undefined, undefined)).toBe("de-DE");
    expect(pickLocale("fr-FR", "fr-FR,it;q=0.5")).toBe("de-DE");
  });

  it("prefers ui_locales in order, then Accept-Language by quality", () => {
    expect(pickLocale("fr en-US de", "de-DE")).toBe("en-US");
    expect(pickLocale(undefined, "fr;q=1, en;q=0.9, de;q=0.8")).toBe("en-US");
    expect(pickLocale(undefined, "en;q=0.2, de-AT;q=0.7")).toBe("de-DE");
    expect(pickLocale("", "en-GB")).toBe("en-US");
  });

  it("has the same texts in both languages", () => {
    expect(Object.keys(textsFor("en-US")).sort()).toEqual(Object.keys(textsFor("de-DE")).sort());
  });
});

describe("demo accounts", () => {
  it("cover the roles the tool knows, including one without access and one without accepted terms", () => {
    const byName = Object.fromEntries(demoAccounts.map((a) => [a.username, a]));
    expect(byName.editor?.roles).toEqual(["SsiUser", "SsiEditor"]);
    expect(byName.approver?.roles).toEqual(["SsiUser", "SsiApprover"]);
    expect(byName.admin?.roles).toEqual(["SsiUser", "SsiEditor", "SsiApprover"]);
    expect(byName.user?.roles).toEqual(["SsiUser"]);
    expect(byName.newcomer?.hasAcceptedTos).toBe(false);
    expect(byName.outsider?.roles).toEqual([]);
  });

  it("check passwords", () => {
    expect(verifyCredentials("Editor ", "editor123")?.username).toBe("editor");
    expect(verifyCredentials("editor", "editor")).toBeUndefined();
    expect(verifyCredentials("nobody", "x")).toBeUndefined();
  });
});
