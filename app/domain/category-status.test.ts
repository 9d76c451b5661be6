import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAnswered } from "./answers";
import { allComplete, categoryStatus, categoryStatuses, nextCategory } from "./category-status";
import { filledTreeArb, flatten, q, type TQ } from "./fill-trees.test-support";
import { visibleQuestionTree } from "./visibility";

const show = (...ids: number[]) => ({ Type: "SHOW" as const, PreliminaryAnswerOptions: ids });

describe("category status", () => {
  // Question 1 (yes 100 → sub-question 2, no 101), question 3 free text, question 4 only for preliminary 901.
  const category = {
    Id: 7,
    Questions: [
      q(1, [
        [100, [q(2)]],
        [101, []],
      ]),
      q(3),
      q(4, [], show(901)),
    ],
  };

  it("is empty while no visible question is answered", () => {
    expect(categoryStatus(category, [], {})).toBe("empty");
    // An answer of a hidden question does not count.
    expect(categoryStatus(category, [], { 4: { TextResponse: "x" } })).toBe("empty");
    // Blank text and an empty selection are no answers.
    expect(categoryStatus(category, [], { 3: { TextResponse: "  " }, 1: { AnswerOptionIds: [] } })).toBe("empty");
  });

  it("is in process while some visible question is unanswered", () => {
    expect(categoryStatus(category, [], { 3: { TextResponse: "x" } })).toBe("inProcess");
  });

  it("counts the sub-questions a chosen option reveals", () => {
    const answers = { 1: { AnswerOptionIds: [100] }, 3: { TextResponse: "x" } };
    expect(categoryStatus(category, [], answers)).toBe("inProcess");
    expect(categoryStatus(category, [], { ...answers, 2: { NumericalResponse: 0 } })).toBe("complete");
    expect(categoryStatus(category, [], { 1: { AnswerOptionIds: [101] }, 3: { TextResponse: "x" } })).toBe("complete");
  });

  it("counts questions the preliminary answers show", () => {
    const answers = { 1: { AnswerOptionIds: [101] }, 3: { TextResponse: "x" } };
    expect(categoryStatus(category, [901], answers)).toBe("inProcess");
    expect(categoryStatus(category, { 20: 901 }, { ...answers, 4: { DateTimeResponse: "01.01.2026 10:00" } })).toBe(
      "complete",
    );
  });

  it("is complete for a category whose questions are all hidden or that has none", () => {
    expect(categoryStatus({ Questions: [q(9, [], show(905))] }, [], {})).toBe("complete");
    expect(categoryStatus({ Questions: [] as TQ[] }, [], {})).toBe("complete");
  });

  it("by category, and all complete only when each is", () => {
    const other = { Id: 8, Questions: [q(10)] };
    const answers = { 1: { AnswerOptionIds: [101] }, 3: { TextResponse: "x" } };
    expect(categoryStatuses([category, other], [], answers)).toEqual({ 7: "complete", 8: "empty" });
    expect(allComplete([category, other], [], answers)).toBe(false);
    expect(allComplete([category, other], [], { ...answers, 10: { TextResponse: "y" } })).toBe(true);
    expect(allComplete([], [], {})).toBe(true);
  });
});

describe("next category", () => {
  const cats = [{ Id: 3 }, { Id: 1 }, { Id: 2 }];

  it("goes to the following one and wraps around from the last", () => {
    expect(nextCategory(3, cats)).toEqual({ Id: 1 });
    expect(nextCategory(2, cats)).toEqual({ Id: 3 });
    expect(nextCategory(undefined, cats)).toEqual({ Id: 3 });
    expect(nextCategory(99, cats)).toEqual({ Id: 3 });
    expect(nextCategory(1, [])).toBeNull();
    expect(nextCategory(5, [{ Id: 5 }])).toEqual({ Id: 5 });
  });

  it("visits every category once before coming back (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 30 }), (ids) => {
        const categories = ids.map((Id) => ({ Id }));
        const seen: number[] = [];
        let current = categories[0].Id;
        for (let i = 0; i < categories.length; i++) {
          current = nextCategory(current, categories)!.Id;
          seen.push(current);
        }
        expect(current).toBe(categories[0].Id);
        expect([...seen].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      }),
    );
  });
});

describe("category status properties", () => {
  it("matches its definition over the visible questions", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, answers, preliminary }) => {
        const visible = visibleQuestionTree(tree, preliminary, answers);
        const answered = visible.filter((x) => isAnswered(answers[x.Id]));
        const status = categoryStatus({ Questions: tree }, preliminary, answers);
        if (answered.length === visible.length) expect(status).toBe("complete");
        else if (answered.length === 0) expect(status).toBe("empty");
        else expect(status).toBe("inProcess");
      }),
    );
  });

  it("no answers: empty, unless nothing is visible", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, preliminary }) => {
        const status = categoryStatus({ Questions: tree }, preliminary, {});
        const anyVisible = visibleQuestionTree(tree, preliminary, {}).length > 0;
        expect(status).toBe(anyVisible ? "empty" : "complete");
      }),
    );
  });

  it("every question answered (each choice picking all its options): complete", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, preliminary }) => {
        const answers = Object.fromEntries(
          flatten(tree).map((x) => [
            x.Id,
            x.AnswerOptions.length ? { AnswerOptionIds: x.AnswerOptions.map((o) => o.Id) } : { TextResponse: "x" },
          ]),
        );
        expect(categoryStatus({ Questions: tree }, preliminary, answers)).toBe("complete");
      }),
    );
  });

  it("allComplete agrees with the status of each category", () => {
    fc.assert(
      fc.property(
        fc.array(filledTreeArb, { minLength: 1, maxLength: 3 }),
        fc.subarray([901, 902, 903]),
        (parts, pre) => {
          const categories = parts.map((p, i) => ({ Id: i + 1, Questions: p.tree }));
          // Ids repeat across the generated trees; each category reads its own answers here.
          const statuses = categories.map((c, i) => categoryStatus(c, pre, parts[i].answers));
          const together = parts.every((p, i) => allComplete([categories[i]], pre, p.answers));
          expect(together).toBe(statuses.every((s) => s === "complete"));
        },
      ),
    );
  });
});
