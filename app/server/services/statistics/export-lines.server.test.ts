import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvLine } from "~/domain/statistics";
import { encodeIn, KEPT_SEP } from "./export-lines.server";

/** Texts made of the characters that matter to a CSV line, and others. */
const text = fc
  .array(fc.constantFrom(";", ",", '"', ".", " ", "\r", "\n", "=", "-", "a", "ü", "ع", "7", "|", "'"), {
    maxLength: 12,
  })
  .map((chars) => chars.join(""));
const cell = fc.oneof(
  text,
  fc.string({ unit: "binary" }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(0.5, -1.25, 1e-7, 1.5e21, 70.5, 91.25),
  fc.constant(null),
);
const utf8 = new TextDecoder();

describe("lines kept in one separator, given in the export's", () => {
  it("are the lines written in that separator, for any cells", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 20 }), { maxLength: 4 }), (rows) => {
        const kept = rows.map((cells) => csvLine(cells, KEPT_SEP)).join("");
        expect(utf8.decode(encodeIn(kept, ","))).toBe(rows.map((cells) => csvLine(cells, ",")).join(""));
        expect(utf8.decode(encodeIn(kept, ";"))).toBe(rows.map((cells) => csvLine(cells, ";")).join(""));
      }),
      { numRuns: 2000 },
    );
  });

  it("turn separators and decimal marks outside quotes, and nothing inside them", () => {
    const kept = 'ja;70,5;"a; b, ""c""";;-1,25\r\nP2;"x\r\ny;z";3,5\r\n';
    expect(utf8.decode(encodeIn(kept, ","))).toBe('ja,70.5,"a; b, ""c""",,-1.25\r\nP2,"x\r\ny;z",3.5\r\n');
    expect(utf8.decode(encodeIn(kept, ";"))).toBe(kept);
  });
});
