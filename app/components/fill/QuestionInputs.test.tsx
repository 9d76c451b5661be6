import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TEXT_RESPONSE_MAX_LENGTH } from "~/domain/response-values";
import { question } from "~/offline/test-support";
import { RegionLanguage } from "./FillLanguage";
import { TextualInput } from "./QuestionInputs";

describe("the free-text field", () => {
  it("takes as many characters as the API does", () => {
    const html = renderToStaticMarkup(
      <TextualInput question={question(7, "FreeText")} value={undefined} onChange={() => undefined} named={false} />,
    );
    expect(html).toContain(`maxLength="${TEXT_RESPONSE_MAX_LENGTH}"`);
    expect(TEXT_RESPONSE_MAX_LENGTH).toBe(10_000);
  });
});

describe("the number field", () => {
  const field = (region: "ar" | "de" | null) => {
    const input = (
      <TextualInput question={question(8, "Numerical")} value={undefined} onChange={() => undefined} named />
    );
    return renderToStaticMarkup(
      region ? <RegionLanguage.Provider value={region}>{input}</RegionLanguage.Provider> : input,
    );
  };

  it("is a text field with the decimal keypad in every language: the page reads what is typed, not the browser", () => {
    // A browser's number field reads "7,5" by the browser's language (75 where a comma groups thousands).
    for (const html of [field("de"), field("ar"), field(null)]) {
      expect(html).toContain('type="text"');
      expect(html).toContain('inputMode="decimal"');
      expect(html).not.toContain("step=");
    }
  });
});
