import { describe, expect, it } from "vitest";
import {
  answersHashOf,
  canonicalCaseAnswers,
  checkSigning,
  sessionHashOf,
  SIGNING_CLOCK_SKEW_MS,
  SIGNING_INTENT_TTL_MS,
  type CaseAnswersContent,
  type SigningIntent,
} from "./signatures.server";

/** The answers hash a signature is bound to, and the checks of a signing's callback (decision 029). */

const content: CaseAnswersContent = {
  caseId: 9,
  surveyId: 3,
  patientId: "P_1",
  answers: [
    {
      question_id: 5,
      answer_option_id: null,
      text_response: "Übelkeit",
      numerical_response: null,
      date_time_response: null,
    },
    { question_id: 2, answer_option_id: 11, text_response: null, numerical_response: null, date_time_response: null },
    { question_id: 2, answer_option_id: 10, text_response: null, numerical_response: null, date_time_response: null },
    { question_id: 7, answer_option_id: null, text_response: null, numerical_response: 1.5, date_time_response: null },
  ],
  preliminary: [{ attribute_id: 4, answer_option_id: 8 }],
  files: [{ question_id: 5, file_name: "a.pdf", size: 10, storage_key: "k1" }],
};

describe("the answers hash", () => {
  it("is the same whatever order the rows come in", () => {
    const shuffled = { ...content, answers: [...content.answers].reverse() };
    expect(answersHashOf(shuffled)).toBe(answersHashOf(content));
    expect(answersHashOf(content)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("pins the canonical text", () => {
    expect(canonicalCaseAnswers(content)).toBe(
      '[1,3,9,"P_1",[[2,10,null,null,null],[2,11,null,null,null],[5,null,"Übelkeit",null,null],' +
        '[7,null,null,1.5,null]],[[4,8]],[[5,"a.pdf",10,"k1"]]]',
    );
  });

  it("changes with any answer, preliminary answer, file or the case itself", () => {
    const base = answersHashOf(content);
    const changes: CaseAnswersContent[] = [
      { ...content, answers: content.answers.slice(1) },
      { ...content, answers: [{ ...content.answers[0]!, text_response: "Übelkeit!" }, ...content.answers.slice(1)] },
      { ...content, answers: [...content.answers.slice(0, 3), { ...content.answers[3]!, numerical_response: 1.6 }] },
      { ...content, preliminary: [{ attribute_id: 4, answer_option_id: 9 }] },
      { ...content, files: [] },
      { ...content, caseId: 10 },
      { ...content, patientId: "P_2" },
    ];
    for (const changed of changes) expect(answersHashOf(changed)).not.toBe(base);
  });
});

describe("the checks of a signing's callback", () => {
  const started = new Date("2026-11-25T10:00:00.000Z");
  const intent: SigningIntent = {
    id: "state",
    user_id: 7,
    session_hash: sessionHashOf("session-1"),
    survey_id: 3,
    patient_data_id: 9,
    meaning: "author",
    answers_hash: answersHashOf(content),
    nonce: "nonce",
    code_verifier: "verifier",
    created_at: started.toISOString(),
    used_at: null,
  };
  const session = { id: "session-1", sub: "erika", surveyUserDataId: 7 };
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const inAMinute = new Date(started.getTime() + 60_000);
  const fresh = seconds(started.getTime() + 30_000);

  it("takes a fresh sign-in of the session's own person within the time", () => {
    expect(checkSigning(intent, { sub: "erika", authTime: fresh, session }, inAMinute)).toBeNull();
    // A provider clock a little behind the app's is allowed for.
    const behind = seconds(started.getTime() - SIGNING_CLOCK_SKEW_MS + 1000);
    expect(checkSigning(intent, { sub: "erika", authTime: behind, session }, inAMinute)).toBeNull();
  });

  it("refuses an authentication older than the signing, or none said", () => {
    const earlier = seconds(started.getTime() - 60 * 60_000);
    expect(checkSigning(intent, { sub: "erika", authTime: earlier, session }, inAMinute)).toBe("stale");
    expect(checkSigning(intent, { sub: "erika", authTime: undefined, session }, inAMinute)).toBe("stale");
  });

  it("refuses another account signed in at the provider", () => {
    expect(checkSigning(intent, { sub: "max", authTime: fresh, session }, inAMinute)).toBe("otherAccount");
  });

  it("refuses an intent that is too old, or that another session or person started", () => {
    const late = new Date(started.getTime() + SIGNING_INTENT_TTL_MS + 1000);
    expect(checkSigning(intent, { sub: "erika", authTime: fresh, session }, late)).toBe("expired");
    const other = { ...session, id: "session-2" };
    expect(checkSigning(intent, { sub: "erika", authTime: fresh, session: other }, inAMinute)).toBe("expired");
    const person = { ...session, surveyUserDataId: 8 };
    expect(checkSigning(intent, { sub: "erika", authTime: fresh, session: person }, inAMinute)).toBe("expired");
    expect(checkSigning(intent, { sub: "erika", authTime: fresh, session: null }, inAMinute)).toBe("expired");
  });
});
