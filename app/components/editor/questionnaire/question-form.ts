/** The question modal's form state and the bodies it sends (section 7); its checks are questionFormSchema. */
import { editingLimits, ImageSrcSchema, normalizeDependence } from "~/domain/editing";
import { answerKind, isSelection, type QuestionType } from "~/domain/question-types";
import type { Dependence, Question } from "~/domain/survey";
import { isBlank, type DraftEntry } from "../entries";
import type { QuestionModalMode } from "./context";
import { editedMarkerOptions, markersFromOptions, newMarkerOptions, type MarkerDraft } from "./markers";

export interface DependenceDraft {
  type: "SHOW" | "HIDE" | null;
  ids: number[];
}

export interface QuestionDraft {
  title: string;
  /** A help text under the question; empty for none. */
  hint: string;
  allowFileAttachments: boolean;
  allowMultipleAnswers: boolean;
  unit: string;
  isTestQuestion: boolean;
  imageSrc: string | null;
  dependence: DependenceDraft;
  markers: MarkerDraft[];
  /** A new choice question's answers, typed in the modal (an edited one's are edited on its card). */
  answers: DraftEntry[];
}

/** Which options a kind of question offers in the modal. */
export function questionFeatures(type: QuestionType) {
  const selection = isSelection(type);
  return {
    /** Weighted answers: the selection kinds (image markers have no weighting in the modal). */
    testQuestion: selection,
    /** Multiple answers change how selection kinds and image questions are answered. */
    multipleAnswers: type !== "SingleSelection" && (selection || type === "Image"),
    /** These kinds always take several answers. */
    multipleImplied: selection && answerKind({ Type: type, AllowMultipleAnswers: false }) === "multiple",
    unit: type === "Numerical",
    image: type === "Image",
    /** A new question of these kinds takes its answers in the modal. */
    answers: type === "SingleSelection" || type === "MultipleSelection",
  };
}

export const questionTypeOf = (mode: QuestionModalMode): QuestionType =>
  mode.kind === "edit" ? mode.question.Type : mode.type;

export function initialQuestionDraft(mode: QuestionModalMode): QuestionDraft {
  if (mode.kind !== "edit") {
    return {
      title: "",
      hint: "",
      allowFileAttachments: false,
      allowMultipleAnswers: questionFeatures(mode.type).multipleImplied,
      unit: "",
      isTestQuestion: false,
      imageSrc: null,
      dependence: { type: null, ids: [] },
      markers: [],
      answers: [{ key: 1, text: "", exit: false }],
    };
  }
  const q = mode.question;
  return {
    title: q.Title,
    hint: q.Hint ?? "",
    allowFileAttachments: q.AllowFileAttachments,
    allowMultipleAnswers: q.AllowMultipleAnswers || questionFeatures(q.Type).multipleImplied,
    unit: q.Unit ?? "",
    isTestQuestion: q.IsTestQuestion,
    imageSrc: q.ImageSrc,
    dependence: q.Dependence
      ? { type: q.Dependence.Type, ids: [...q.Dependence.PreliminaryAnswerOptions] }
      : { type: null, ids: [] },
    markers: q.Type === "Image" ? markersFromOptions(q.AnswerOptions) : [],
    answers: [],
  };
}

/**
 * Ticks or unticks a preliminary answer: the first answer chosen without a type means SHOW, and clearing
 * every answer removes the rule (section 5).
 */
export function toggleDependence(dep: DependenceDraft, optionId: number, checked: boolean): DependenceDraft {
  const ids = checked ? [...new Set([...dep.ids, optionId])] : dep.ids.filter((id) => id !== optionId);
  if (ids.length === 0) return { type: null, ids };
  return { type: dep.type ?? "SHOW", ids };
}

export const dependenceOf = (dep: DependenceDraft): Dependence | null =>
  normalizeDependence({ Type: dep.type, PreliminaryAnswerOptions: dep.ids });

/** The fields a kind of question stores, from the draft. */
function fieldsOf(type: QuestionType, draft: QuestionDraft) {
  const features = questionFeatures(type);
  return {
    Title: draft.title.trim(),
    Hint: draft.hint.trim() || null,
    AllowFileAttachments: draft.allowFileAttachments,
    AllowMultipleAnswers: features.multipleImplied || (features.multipleAnswers && draft.allowMultipleAnswers),
    Unit: features.unit ? draft.unit.trim() || null : null,
    IsTestQuestion: features.testQuestion && draft.isTestQuestion,
    ImageSrc: features.image ? draft.imageSrc : null,
    Dependence: dependenceOf(draft.dependence),
  };
}

/** The body of POST /questions (with CategoryId) or POST /answer-options/{id}/sub-question (without). */
export function createQuestionBody(type: QuestionType, draft: QuestionDraft, surveyId: number, categoryId?: number) {
  const fields = fieldsOf(type, draft);
  return {
    SurveyId: surveyId,
    ...(categoryId !== undefined ? { CategoryId: categoryId } : {}),
    Type: type,
    ...fields,
    ...(type === "Image" ? { AnswerOptions: newMarkerOptions(draft.markers) } : {}),
    ...(questionFeatures(type).answers ? { AnswerOptions: newAnswerOptions(draft.answers) } : {}),
  };
}

/** A new choice question's answers, in order; entries left empty are not sent. */
export function newAnswerOptions(entries: readonly DraftEntry[]) {
  return entries.filter((e) => !isBlank(e.text)).map((e) => ({ Text: e.text.trim(), IsExitAnswer: e.exit }));
}

const sameDependence = (a: Dependence | null, b: Dependence | null) =>
  JSON.stringify(normalizeDependence(a)) === JSON.stringify(normalizeDependence(b));

/**
 * The body of PUT /questions/{id} with only the changed fields; null when nothing changed. Options the kind
 * does not offer in the modal are left as stored.
 */
export function updateQuestionBody(question: Question, draft: QuestionDraft, surveyId: number) {
  const features = questionFeatures(question.Type);
  const next = fieldsOf(question.Type, draft);
  const body: Record<string, unknown> = {};
  if (next.Title !== question.Title) body.Title = next.Title;
  if (next.Hint !== (question.Hint ?? null)) body.Hint = next.Hint;
  if (next.AllowFileAttachments !== question.AllowFileAttachments) {
    body.AllowFileAttachments = next.AllowFileAttachments;
  }
  if (features.multipleAnswers && next.AllowMultipleAnswers !== question.AllowMultipleAnswers) {
    body.AllowMultipleAnswers = next.AllowMultipleAnswers;
  }
  if (features.unit && next.Unit !== (question.Unit || null)) body.Unit = next.Unit;
  if (features.testQuestion && next.IsTestQuestion !== question.IsTestQuestion) {
    body.IsTestQuestion = next.IsTestQuestion;
  }
  if (features.image && next.ImageSrc !== question.ImageSrc) body.ImageSrc = next.ImageSrc;
  if (!sameDependence(next.Dependence, question.Dependence)) body.Dependence = next.Dependence;
  if (features.image) {
    const markers = editedMarkerOptions(markersFromOptions(question.AnswerOptions), draft.markers);
    if (markers) body.AnswerOptions = markers;
  }
  if (Object.keys(body).length === 0) return null;
  return { SurveyId: surveyId, ...body };
}

/** The image kinds the API takes (as data URLs). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** The largest file whose data URL still fits the API's limit (base64 takes 4 characters per 3 bytes). */
export const MAX_IMAGE_BYTES = Math.floor((editingLimits.imageSrc - "data:image/jpeg;base64,".length) / 4) * 3;

export type ImageIssue = "type" | "size";

/** Why a chosen file cannot be the question's image; null when it can be read. */
export function imageFileIssue(file: { type: string; size: number }): ImageIssue | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return "type";
  if (file.size > MAX_IMAGE_BYTES) return "size";
  return null;
}

/** Why a data URL read from a file is refused by the API; null when it is taken. */
export function imageSrcIssue(src: string): ImageIssue | null {
  if (src.length > editingLimits.imageSrc) return "size";
  return ImageSrcSchema.safeParse(src).success ? null : "type";
}
