import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { filledTreeArb, flatten, preliminaryArb, q, treeArb, type TQ } from "./fill-trees.test-support";
import {
  allQuestions,
  chosenPreliminaryOptions,
  dependenceAllows,
  hiddenAnsweredQuestionIds,
  isShownByPreliminary,
  questionsById,
  surveyQuestions,
  visibleQuestionIds,
  visibleQuestionTree,
  visibleSubQuestions,
} from "./visibility";

const show = (...ids: number[]) => ({ Type: "SHOW" as const, PreliminaryAnswerOptions: ids });
const hide = (...ids: number[]) => ({ Type: "HIDE" as const, PreliminaryAnswerOptions: ids });

describe("dependence on preliminary answers", () => {
  it("SHOW shows a question when any listed answer was chosen", () => {
    expect(dependenceAllows(show(1, 2), new Set([2]))).toBe(true);
    expect(dependenceAllows(show(1, 2), new Set([3]))).toBe(false);
    expect(dependenceAllows(show(1, 2), new Set())).toBe(false);
  });

  it("HIDE hides a question when any listed answer was chosen", () => {
    expect(dependenceAllows(hide(1, 2), new Set([1]))).toBe(false);
    expect(dependenceAllows(hide(1, 2), new Set([3]))).toBe(true);
    expect(dependenceAllows(hide(1, 2), new Set())).toBe(true);
  });

  it("no dependence (or an empty one) shows the question", () => {
    expect(dependenceAllows(null, new Set([1]))).toBe(true);
    expect(dependenceAllows(show(), new Set())).toBe(true);
  });

  it("takes the preliminary answers as the page keeps them or as a list of chosen ids", () => {
    expect([...chosenPreliminaryOptions({ 10: 901, 11: 905, 12: null })]).toEqual([901, 905]);
    expect([...chosenPreliminaryOptions([901, 902])]).toEqual([901, 902]);
    expect(isShownByPreliminary({ Dependence: show(905) }, { 11: 905 })).toBe(true);
    expect(isShownByPreliminary({ Dependence: show(905) }, new Set([904]))).toBe(false);
  });
});

describe("sub-questions", () => {
  // 1 ─ option 100 ─ 2 ─ option 200 ─ 3
  //   └ option 101 ─ 4 (SHOW if 901)
  const tree: TQ[] = [
    q(1, [
      [100, [q(2, [[200, [q(3)]]])]],
      [101, [q(4, [], show(901))]],
    ]),
    q(5, [], hide(902)),
  ];

  it("show only under a chosen option of a visible parent", () => {
    expect([...visibleQuestionIds(tree, [], {})]).toEqual([1, 5]);
    expect([...visibleQuestionIds(tree, [], { 1: { AnswerOptionIds: [100] } })]).toEqual([1, 2, 5]);
    expect([...visibleQuestionIds(tree, [], { 1: { AnswerOptionIds: [100] }, 2: { AnswerOptionIds: [200] } })]).toEqual(
      [1, 2, 3, 5],
    );
    // An answer left on a sub-question whose parent option is no longer chosen does not show it.
    expect([...visibleQuestionIds(tree, [], { 1: { AnswerOptionIds: [101] }, 2: { AnswerOptionIds: [200] } })]).toEqual(
      [1, 5],
    );
  });

  it("obey their own dependence too", () => {
    expect(visibleSubQuestions(tree[0], { 1: { AnswerOptionIds: [101] } }, []).map((x) => x.Id)).toEqual([]);
    expect(visibleSubQuestions(tree[0], { 1: { AnswerOptionIds: [101] } }, [901]).map((x) => x.Id)).toEqual([4]);
  });

  it("list in page order: each question followed by the sub-questions of its chosen options", () => {
    const answers = { 1: { AnswerOptionIds: [100, 101] }, 2: { AnswerOptionIds: [200] } };
    expect(visibleQuestionTree(tree, [901, 902], answers).map((x) => x.Id)).toEqual([1, 2, 3, 4]);
  });

  it("names answered questions that are hidden, for removal", () => {
    const answers = { 1: { AnswerOptionIds: [101] }, 2: { AnswerOptionIds: [200] }, 3: {}, 5: { TextResponse: "x" } };
    expect(hiddenAnsweredQuestionIds(tree, [902], answers).sort()).toEqual([2, 3, 5]);
    expect(allQuestions(tree).map((x) => x.Id)).toEqual([1, 2, 3, 4, 5]);
  });

  it("walks a survey's categories in order, each question before its sub-questions", () => {
    const survey = { Categories: [{ Questions: tree.slice(1) }, { Questions: tree.slice(0, 1) }] };
    expect(surveyQuestions(survey).map((x) => x.Id)).toEqual([5, 1, 2, 3, 4]);
    expect([...questionsById(survey).keys()].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(questionsById(survey).get(1)).toBe(tree[0]);
  });
});

describe("visibility properties", () => {
  it("a top-level question shows exactly as its dependence says", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, answers, preliminary }) => {
        const visible = visibleQuestionIds(tree, preliminary, answers);
        const chosen = new Set(preliminary);
        for (const top of tree) {
          const dep = top.Dependence;
          const hit = dep ? dep.PreliminaryAnswerOptions.some((id) => chosen.has(id)) : false;
          const expected = !dep || (dep.Type === "SHOW" ? hit : !hit);
          expect(visible.has(top.Id)).toBe(expected);
        }
      }),
    );
  });

  it("a sub-question shows if and only if its parent shows, its option is chosen and its dependence allows it", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, answers, preliminary }) => {
        const visible = visibleQuestionIds(tree, preliminary, answers);
        const chosen = new Set(preliminary);
        for (const parent of flatten(tree)) {
          for (const option of parent.AnswerOptions) {
            const picked = answers[parent.Id]?.AnswerOptionIds?.includes(option.Id) ?? false;
            for (const sub of option.SubQuestions) {
              const expected = visible.has(parent.Id) && picked && dependenceAllows(sub.Dependence, chosen);
              expect(visible.has(sub.Id)).toBe(expected);
            }
          }
        }
      }),
    );
  });

  it("answers of hidden questions change nothing, and removing them leaves what is visible", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, answers, preliminary }) => {
        const visible = visibleQuestionIds(tree, preliminary, answers);
        const hidden = hiddenAnsweredQuestionIds(tree, preliminary, answers);
        const pruned = { ...answers };
        for (const id of hidden) delete pruned[id];
        expect(visibleQuestionIds(tree, preliminary, pruned)).toEqual(visible);
        expect(hidden.every((id) => !visible.has(id) && answers[id] !== undefined)).toBe(true);
        expect(hiddenAnsweredQuestionIds(tree, preliminary, pruned)).toEqual([]);
      }),
    );
  });

  it("choosing one more preliminary answer never hides a SHOW question nor shows a HIDE question", () => {
    fc.assert(
      fc.property(treeArb, preliminaryArb, fc.constantFrom(901, 902, 903, 904, 905), (tree, preliminary, extra) => {
        const before = visibleQuestionIds(tree, preliminary, {});
        const after = visibleQuestionIds(tree, [...preliminary, extra], {});
        for (const top of tree) {
          if (top.Dependence?.Type === "SHOW" && before.has(top.Id)) expect(after.has(top.Id)).toBe(true);
          if (top.Dependence?.Type === "HIDE" && !before.has(top.Id)) expect(after.has(top.Id)).toBe(false);
        }
      }),
    );
  });

  it("the visible tree has no duplicates and only questions of the survey", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, answers, preliminary }) => {
        const listed = visibleQuestionTree(tree, preliminary, answers).map((x) => x.Id);
        const all = new Set(flatten(tree).map((x) => x.Id));
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed.every((id) => all.has(id))).toBe(true);
      }),
    );
  });
});
