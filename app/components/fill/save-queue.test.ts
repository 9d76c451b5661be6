import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AnswerValue } from "~/domain/answers";
import { question } from "~/offline/test-support";
import type { ApiResult } from "~/api-client";
import { saveQueue, TYPING_SAVE_MS, type SaveState } from "./save-queue";

const text = (t: string): AnswerValue => ({ TextResponse: t });
const OK: ApiResult<unknown> = { ok: true, data: undefined };
const REFUSED: ApiResult<unknown> = { ok: false, status: 400, type: "VALIDATION_ERROR", message: "no" };

/** A sink whose saves end when the test says so, recording what was sent and how many were on their way. */
function slowSink() {
  const sent: (string | undefined)[] = [];
  const waiting: ((r: ApiResult<unknown>) => void)[] = [];
  let inFlight = 0;
  let most = 0;
  return {
    sent,
    get most() {
      return most;
    },
    get open() {
      return waiting.length;
    },
    save: (_q: unknown, value: AnswerValue | undefined) => {
      sent.push(value?.TextResponse);
      inFlight += 1;
      most = Math.max(most, inFlight);
      return new Promise<ApiResult<unknown>>((resolve) =>
        waiting.push((r) => {
          inFlight -= 1;
          resolve(r);
        }),
      );
    },
    end(result: ApiResult<unknown> = OK) {
      waiting.shift()!(result);
    },
  };
}

function world(initial: Record<number, AnswerValue> = {}, where = { local: false }) {
  const sink = slowSink();
  const shown = new Map<number, AnswerValue | undefined>();
  const states = new Map<number, SaveState>();
  const refusals: unknown[] = [];
  const queue = saveQueue(initial, {
    save: sink.save,
    isLocal: () => where.local,
    show: (id, v) => shown.set(id, v),
    state: (id, s) => states.set(id, s),
    refused: (r) => refusals.push(r),
  });
  return { sink, shown, states, refusals, queue };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe("the fill page's saves", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const q = question(19, "FreeText");

  it("saves a typed value once typing pauses, showing it at once", async () => {
    const w = world();
    for (const t of ["S", "Sc", "Sch"]) {
      void w.queue.give(q, text(t), true);
      await vi.advanceTimersByTimeAsync(TYPING_SAVE_MS - 100);
    }
    expect(w.shown.get(19)).toEqual(text("Sch"));
    expect(w.states.get(19)).toBe("saving");
    expect(w.sink.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(w.sink.sent).toEqual(["Sch"]);
    w.sink.end();
    await settle();
    expect(w.states.get(19)).toBe("saved");
  });

  it("never has two saves of a question on their way, and sends the newest value next", async () => {
    const w = world();
    void w.queue.give(q, text("a"));
    await settle();
    void w.queue.give(q, text("ab"));
    void w.queue.give(q, text("abc"), true);
    const flushed = w.queue.flush();
    await settle();
    // The first save is still on its way: the newest value waits for it.
    expect(w.sink.open).toBe(1);
    expect(w.sink.sent).toEqual(["a"]);
    w.sink.end();
    await settle();
    expect(w.sink.sent).toEqual(["a", "abc"]);
    w.sink.end();
    await flushed;
    expect(w.sink.most).toBe(1);
    expect(w.states.get(19)).toBe("saved");
  });

  it("an older value is never sent after a newer one, whatever the timing", async () => {
    const w = world();
    const typed = ["S", "Sc", "Sch", "Schm", "Schme", "Schmer", "Schmerz"];
    for (const [i, t] of typed.entries()) {
      void w.queue.give(q, text(t), i % 2 === 0);
      await vi.advanceTimersByTimeAsync(i * 200);
      if (w.sink.open > 0 && i % 3 === 0) w.sink.end();
    }
    const flushed = w.queue.flush();
    for (let i = 0; i < 20; i++) {
      if (w.sink.open > 0) w.sink.end();
      await settle();
    }
    await flushed;
    const order = w.sink.sent.map((t) => typed.indexOf(t!));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(w.sink.sent.at(-1)).toBe("Schmerz");
    expect(w.sink.most).toBe(1);
  });

  it("a refused save puts the kept answer back, unless a newer value is on its way", async () => {
    const w = world({ 19: text("alt") });
    const first = w.queue.give(q, text("neu"));
    await settle();
    w.sink.end(REFUSED);
    expect(await first).toBe(false);
    expect(w.shown.get(19)).toEqual(text("alt"));
    expect(w.states.get(19)).toBe("failed");
    expect(w.refusals).toHaveLength(1);

    void w.queue.give(q, text("eins"));
    await settle();
    void w.queue.give(q, text("zwei"));
    w.sink.end(REFUSED);
    await settle();
    expect(w.shown.get(19)).toEqual(text("zwei"));
    w.sink.end();
    await settle();
    expect(w.states.get(19)).toBe("saved");
  });

  it("sends nothing for the value already kept", async () => {
    const w = world({ 19: text("gleich") });
    expect(await w.queue.give(q, text("gleich"))).toBe(true);
    expect(w.sink.sent).toEqual([]);
    expect(w.states.get(19)).toBe("saved");
  });

  it("lists what is not kept yet: typed, waiting, or on its way", async () => {
    const w = world();
    void w.queue.give(q, text("unterwegs"));
    await settle();
    const other = question(20, "Numerical");
    void w.queue.give(other, { NumericalResponse: 12 }, true);
    expect(w.queue.unkept().map((u) => u.value)).toEqual([text("unterwegs"), { NumericalResponse: 12 }]);
    void w.queue.give(q, text("neuer"), true);
    expect(w.queue.unkept()[0].value).toEqual(text("neuer"));
    const done = w.queue.flush();
    w.sink.end();
    await settle();
    w.sink.end();
    await settle();
    w.sink.end();
    await done;
    expect(w.queue.unkept()).toEqual([]);
  });

  it("says 'saved' for an answer kept on the device once the sync put that very answer on the server", async () => {
    const where = { local: true };
    const w = world({}, where);
    const other = question(20, "FreeText");
    const third = question(21, "FreeText");
    for (const [question, value] of [
      [q, "auf dem Gerät"],
      [other, "vorher"],
      [third, "unterwegs"],
    ] as const) {
      void w.queue.give(question, text(value));
      await settle();
      if (question !== third) w.sink.end();
      await settle();
    }
    expect(w.states.get(19)).toBe("savedLocal");
    // The sync sent "auf dem Gerät", and the older value of question 20; 21 is still on its way to the device.
    w.queue.onServer({ 19: text("auf dem Gerät"), 20: text("noch älter"), 21: text("unterwegs") });
    expect(w.states.get(19)).toBe("saved");
    expect(w.states.get(20)).toBe("savedLocal");
    expect(w.states.get(21)).toBe("saving");
    w.sink.end();
    await settle();
    expect(w.states.get(21)).toBe("savedLocal");
    // An answer saved on the server is not the device's to confirm again.
    where.local = false;
    void w.queue.give(q, text("online"));
    await settle();
    w.sink.end();
    await settle();
    w.states.clear();
    w.queue.onServer({ 19: text("online") });
    expect(w.states.size).toBe(0);
  });
});
