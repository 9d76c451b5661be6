import { describe, expect, it } from "vitest";
import { moveEntry, pasteEntries, pastedLines, type DraftEntry } from "./entries";

const entry = (key: number, text: string): DraftEntry => ({ key, text, exit: false });

describe("pasteEntries", () => {
  it("turns a pasted list into one entry per line, the empty entry taking the first", () => {
    const pasted = pasteEntries([entry(1, "ja"), entry(2, "")], 2, "gering\r\n\n  mittel \nstark\n")!;
    expect(pasted.entries.map((e) => e.text)).toEqual(["ja", "gering", "mittel", "stark"]);
    expect(new Set(pasted.entries.map((e) => e.key)).size).toBe(4);
    expect(pasted.key).toBe(pasted.entries[3].key);
  });

  it("puts the lines after a filled entry, before those that follow it", () => {
    const pasted = pasteEntries([entry(1, "ja"), entry(2, "nein")], 1, "a\nb")!;
    expect(pasted.entries.map((e) => e.text)).toEqual(["ja", "a", "b", "nein"]);
  });

  it("leaves a single line to the field itself", () => {
    expect(pasteEntries([entry(1, "")], 1, "nur eine Zeile\n")).toBeNull();
    expect(pastedLines(" a \n\n b ")).toEqual(["a", "b"]);
  });
});

describe("moveEntry", () => {
  it("moves an entry up or down in place, and nowhere outside the list", () => {
    const list = [entry(1, "a"), entry(2, "b"), entry(3, "c")];
    expect(moveEntry(list, 2, 0).map((e) => e.text)).toEqual(["c", "a", "b"]);
    expect(moveEntry(list, 0, 1).map((e) => e.text)).toEqual(["b", "a", "c"]);
    expect(moveEntry(list, 0, 3)).toBe(list);
  });
});
