import { describe, expect, it } from "vitest";
import { saveChanged, saveOnItsWay } from "./saving";

/** A server whose answers the test gives, one request at a time. */
function server() {
  const sent: string[] = [];
  const answers: ((ok: boolean) => void)[] = [];
  const send = (value: string) => {
    sent.push(value);
    return new Promise<boolean>((resolve) => answers.push(resolve));
  };
  return { sent, send, answer: (ok: boolean) => answers.shift()!(ok) };
}

describe("saveChanged, the save step of a field saved on its own", () => {
  it("sends nothing for the value the server holds", async () => {
    const s = server();
    const saved = { current: "A" };
    expect(await saveChanged(saved, "A", s.send)).toBe(true);
    expect(s.sent).toEqual([]);
  });

  it("holds the sent value as saved while it is on its way, and after the server took it", async () => {
    const s = server();
    const saved = { current: "A" };
    const first = saveChanged(saved, "B", s.send);
    expect(saved.current).toBe("B");
    expect(await saveChanged(saved, "B", s.send)).toBe(true); // the same value again: nothing sent
    s.answer(true);
    expect(await first).toBe(true);
    expect(saved.current).toBe("B");
    expect(s.sent).toEqual(["B"]);
  });

  it("puts the value before back when the server refuses, or the request fails", async () => {
    const s = server();
    const saved = { current: "A" };
    const refused = saveChanged(saved, "B", s.send);
    s.answer(false);
    expect(await refused).toBe(false);
    expect(saved.current).toBe("A");
    expect(await saveChanged(saved, "C", () => Promise.reject(new Error("offline")))).toBe(false);
    expect(saved.current).toBe("A");
  });

  it("keeps a newer value sent meanwhile when an older save is refused", async () => {
    const s = server();
    const saved = { current: "A" };
    const older = saveChanged(saved, "B", s.send);
    const newer = saveChanged(saved, "C", s.send);
    s.answer(false);
    expect(await older).toBe(false);
    expect(saved.current).toBe("C");
    s.answer(true);
    expect(await newer).toBe(true);
    expect(saved.current).toBe("C");
  });

  it("says a save is on its way until its last answer came, refused, taken or failed", async () => {
    const s = server();
    const saved = { current: "A" };
    expect(saveOnItsWay(saved)).toBe(false);
    const first = saveChanged(saved, "B", s.send);
    const second = saveChanged(saved, "C", s.send);
    expect(saveOnItsWay(saved)).toBe(true);
    expect(saveOnItsWay({ current: "A" })).toBe(false); // another field
    s.answer(false);
    await first;
    expect(saveOnItsWay(saved)).toBe(true);
    s.answer(true);
    await second;
    expect(saveOnItsWay(saved)).toBe(false);
    await saveChanged(saved, "D", () => Promise.reject(new Error("offline")));
    expect(saveOnItsWay(saved)).toBe(false);
  });

  it("compares with the field's own sameness (a list of ids in another order is no change)", async () => {
    const s = server();
    const saved = { current: [1, 2] };
    const sameIds = (a: number[], b: number[]) => [...a].sort().join() === [...b].sort().join();
    expect(await saveChanged(saved, [2, 1], (v) => s.send(v.join()), sameIds)).toBe(true);
    expect(s.sent).toEqual([]);
  });
});
