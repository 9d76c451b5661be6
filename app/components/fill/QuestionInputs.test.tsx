import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TEXT_RESPONSE_MAX_LENGTH } from "~/domain/response-values";
import { question } from "~/offline/test-support";
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
