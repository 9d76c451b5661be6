import { describe, expect, it } from "vitest";
import { isAllowedLink, normalizeLink } from "./link";

describe("link addresses", () => {
  it("accepts http, https and mailto", () => {
    expect(normalizeLink("https://www.example.org/a?b=1#c")).toBe("https://www.example.org/a?b=1#c");
    expect(normalizeLink("  http://example.org ")).toBe("http://example.org");
    expect(normalizeLink("mailto:studie@klinik.example")).toBe("mailto:studie@klinik.example");
    expect(normalizeLink("HTTPS://EXAMPLE.ORG")).toBe("HTTPS://EXAMPLE.ORG");
  });

  it("completes a bare web or e-mail address", () => {
    expect(normalizeLink("www.example.org/info")).toBe("https://www.example.org/info");
    expect(normalizeLink("studie@klinik.example")).toBe("mailto:studie@klinik.example");
  });

  it("refuses other schemes and things that are no address", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
      "ftp://example.org",
      "tel:+4912345",
      "file:///etc/passwd",
      "//example.org",
      "https://",
      "mailto:",
      "mailto:nobody",
      "hello world",
      "",
      "   ",
      "nothing",
    ]) {
      expect(normalizeLink(bad), bad).toBeNull();
    }
    expect(isAllowedLink("javascript:alert(1)")).toBe(false);
    expect(isAllowedLink("https://example.org")).toBe(true);
  });
});
