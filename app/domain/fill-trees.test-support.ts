/** Question trees for the tests of visibility and category status: hand-made ones and fast-check arbitraries. */
import fc from "fast-check";
import type { AnswerValue } from "./answers";
import type { DependenceRule } from "./visibility";

export interface TQ {
  Id: number;
  Dependence: DependenceRule | null;
  AnswerOptions: { Id: number; SubQuestions: TQ[] }[];
}

export const q = (Id: number, options: [number, TQ[]][] = [], Dependence: DependenceRule | null = null): TQ => ({
  Id,
  Dependence,
  AnswerOptions: options.map(([id, subs]) => ({ Id: id, SubQuestions: subs })),
});

export const PRELIMINARY_IDS = [901, 902, 903, 904, 905];

interface Shape {
  dep: DependenceRule | null;
  options: Shape[][];
}

const depArb: fc.Arbitrary<DependenceRule | null> = fc.option(
  fc.record({
    Type: fc.constantFrom("SHOW" as const, "HIDE" as const),
    PreliminaryAnswerOptions: fc.subarray(PRELIMINARY_IDS, { minLength: 1 }),
  }),
  { nil: null, freq: 2 },
);

function shapeArb(depth: number): fc.Arbitrary<Shape> {
  return fc.record({
    dep: depArb,
    options: fc.array(depth > 0 ? fc.array(shapeArb(depth - 1), { maxLength: 2 }) : fc.constant([]), {
      maxLength: 3,
    }),
  });
}

/** Turns shapes into questions with unique ids (questions from 1, options from 1000). */
function build(shapes: Shape[]): TQ[] {
  let nextQuestion = 1;
  let nextOption = 1000;
  const make = (s: Shape): TQ => ({
    Id: nextQuestion++,
    Dependence: s.dep,
    AnswerOptions: s.options.map((subs) => ({ Id: nextOption++, SubQuestions: subs.map(make) })),
  });
  return shapes.map(make);
}

export function flatten(questions: readonly TQ[]): TQ[] {
  return questions.flatMap((x) => [x, ...flatten(x.AnswerOptions.flatMap((o) => o.SubQuestions))]);
}

/** A list of top-level questions with sub-questions up to three levels deep. */
export const treeArb: fc.Arbitrary<TQ[]> = fc.array(shapeArb(3), { maxLength: 5 }).map(build);

/** Some answer (or none) for each question of a tree: chosen options, text, blank text. */
export function answersArb(tree: readonly TQ[]): fc.Arbitrary<Record<number, AnswerValue>> {
  const all = flatten(tree);
  return fc
    .tuple(
      ...all.map((x) =>
        fc.option(
          fc.oneof(
            fc.subarray(x.AnswerOptions.map((o) => o.Id)).map((ids) => ({ AnswerOptionIds: ids })),
            fc.constantFrom({ TextResponse: "Notiz" }, { TextResponse: "  " }, { NumericalResponse: 1.5 }),
          ),
          { nil: undefined },
        ),
      ),
    )
    .map((values) => {
      const out: Record<number, AnswerValue> = {};
      values.forEach((v, i) => {
        if (v) out[all[i].Id] = v;
      });
      return out;
    });
}

export const preliminaryArb = fc.subarray(PRELIMINARY_IDS);

/** A tree with answers and chosen preliminary answers. */
export const filledTreeArb = treeArb.chain((tree) =>
  fc.record({ tree: fc.constant(tree), answers: answersArb(tree), preliminary: preliminaryArb }),
);
