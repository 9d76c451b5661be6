import { describe, expect, it } from "vitest";
import { q } from "./fill-trees.test-support";
import { questionNumbers } from "./question-numbers";

describe("question numbers", () => {
  it("counts a category's questions from 1 in their order", () => {
    expect([...questionNumbers([q(7), q(3), q(9)])]).toEqual([
      [7, "1"],
      [3, "2"],
      [9, "3"],
    ]);
  });

  it("numbers sub-questions on from their question, across its answers in order, at any depth", () => {
    const tree = [
      q(1),
      q(2, [
        [20, [q(21), q(22, [[220, [q(23)]]])]],
        [30, []],
        [40, [q(41)]],
      ]),
      q(3),
    ];
    expect(Object.fromEntries(questionNumbers(tree))).toEqual({
      1: "1",
      2: "2",
      21: "2.1",
      22: "2.2",
      23: "2.2.1",
      41: "2.3",
      3: "3",
    });
  });

  it("has nothing to number in an empty category", () => {
    expect(questionNumbers([]).size).toBe(0);
  });
});
