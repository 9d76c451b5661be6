import type { QuestionType } from "~/domain/question-types";
import type { NumberRange } from "./demo-cases.server";

/** How a demo survey is written down (demo-surveys.server.ts); demo-data.server.ts stores it. */

export interface DemoOption {
  text: string;
  exit?: boolean;
  weight?: number;
  correct?: boolean;
  sub?: DemoQuestion[];
  /** An image question's marker: where it sits, as fractions of the image's width and height. */
  at?: [number, number];
  /** How often demo cases choose it, against the question's other options (default 1). */
  often?: number;
}
export interface DemoQuestion {
  title: string;
  type: QuestionType;
  unit?: string;
  /** A number question's plausible answers for the demo cases. */
  range?: NumberRange;
  test?: boolean;
  attachments?: boolean;
  options?: DemoOption[];
  /** Shown only when this preliminary answer (by text) was chosen. */
  showIf?: string;
  /** Hidden when this preliminary answer (by text) was chosen. */
  hideIf?: string;
  /** An image question: its picture, and whether several markers may be chosen. */
  image?: "body";
  multiple?: boolean;
}
export interface DemoSurvey {
  title: string;
  description: string;
  status: 1 | 2 | 4;
  start: string | null;
  end: string | null;
  target: number;
  intro: string;
  outro: string;
  autoId: boolean;
  preliminary: { title: string; options: string[] }[];
  categories: { title: string; questions: DemoQuestion[] }[];
  /** Closed demo cases on a new installation, and the seed of their answers. */
  cases?: { count: number; seed: number; words?: string[] };
  /** A copy of the demo survey of this title, so that the two can be compared (benchmarking). */
  copyOf?: string;
}

/** This year plus offset. */
export function year(offset: number) {
  return new Date().getUTCFullYear() + offset;
}
