/** Surveys for tests of the content languages: a whole Survey from a few of its parts. */
import type { AnswerOption, Category, PatientFormAttribute, Question, Survey } from "./survey";

export function question(Id: number, Title: string, parts: Partial<Question> = {}): Question {
  return {
    Id,
    CategoryId: 1,
    SurveyId: 1,
    ParentAnswerOptionId: null,
    Title,
    Type: "SingleSelection",
    Sort: 0,
    AllowFileAttachments: false,
    AllowMultipleAnswers: false,
    Unit: null,
    IsTestQuestion: false,
    ImageSrc: null,
    Dependence: null,
    Hint: null,
    Codes: [],
    AnswerOptions: [],
    ...parts,
  };
}

const optionFields = {
  QuestionId: 1,
  SurveyId: 1,
  Value: null,
  IsExitAnswer: false,
  Weight: null,
  WeightingState: 2,
  Sort: 0,
  X: null,
  Y: null,
  Score: null,
  System: null,
};

export function answer(Id: number, Text: string, SubQuestions: Question[] = []): AnswerOption {
  return { ...optionFields, Id, Text, SubQuestions };
}

export function marker(Id: number, Title: string): AnswerOption {
  return { ...optionFields, Id, Title, X: 0.5, Y: 0.5, SubQuestions: [] };
}

export function category(Id: number, Title: string, Questions: Question[]): Category {
  return { Id, SurveyId: 1, Title, Sort: 0, Codes: [], Questions };
}

export function attribute(Id: number, Title: string, entries: [number, string][]): PatientFormAttribute {
  return {
    Id,
    PatientFormId: 1,
    SurveyId: 1,
    Title,
    Enabled: true,
    PreSelected: false,
    Sort: 0,
    AnswerOptions: entries.map(([id, Text], Sort) => ({ Id: id, Text, Value: null, IsExitAnswer: false, Sort })),
  };
}

export function survey(parts: Partial<Survey> = {}): Survey {
  return {
    Id: 1,
    Title: "Befinden",
    Description: "",
    Status: "Draft",
    StartDate: "",
    EndDate: "",
    IntroText: "",
    OutroText: "",
    TargetNumberOfResponses: 0,
    IsPatientIdAutoGenerationEnabled: false,
    IsPatientFormEnabled: false,
    RequiresSignature: false,
    PatientSubmitReview: false,
    PreliminaryByPatient: false,
    RetentionMonths: 0,
    ScoreTitle: null,
    Instrument: null,
    SourceLanguage: "de",
    Languages: [],
    Translations: {},
    TagIds: [],
    UserTeamPermissions: [],
    EditorTeamPermissions: [],
    ApproverTeamPermissions: [],
    TeamPermissions: [],
    Hash: "h",
    Categories: [],
    PatientFormId: 1,
    PatientForm: [],
    Rights: { CanParticipate: true, CanEdit: true, CanApprove: true },
    SourceSurveyId: null,
    ...parts,
  };
}

/** A survey of `count` questions in categories of ten, each with a hint and four answers. */
export function longSurvey(count: number): Survey {
  const categories: Category[] = [];
  for (let c = 0; c * 10 < count; c++) {
    const questions: Question[] = [];
    for (let i = c * 10; i < Math.min(count, c * 10 + 10); i++) {
      questions.push(
        question(i + 1, `Frage ${i + 1}`, {
          Hint: `Hinweis ${i + 1}`,
          AnswerOptions: [0, 1, 2, 3].map((a) => answer(10_000 + i * 10 + a, `Antwort ${a}`)),
        }),
      );
    }
    categories.push(category(c + 1, `Teil ${c + 1}`, questions));
  }
  return survey({ Title: "Lang", Description: "Viele Fragen", Categories: categories });
}
