import { IDBFactory } from "fake-indexeddb";
import type { Question, Survey } from "~/domain/survey";
import type { EntryContext } from "./fill-store";
import { resetHandoverMarkForTests } from "./handover-mark";
import { resetSealedForTests } from "./sealed";
import { deriveHolder, resetVaultForTests, type Holder } from "./vault";

/** The keys a test person holds the device with: the same secret gives the same keys (and tag). */
export function testHolder(tag = "a11ce", seed = 1): Promise<Holder> {
  return deriveHolder(tag, new Uint8Array(32).fill(seed));
}

/**
 * A fresh, empty IndexedDB for each test (fake-indexeddb), with fresh store handles, and the test person
 * holding the device. Takes no arguments (it is also given to beforeEach as it is).
 */
export function freshDatabases() {
  globalThis.indexedDB = new IDBFactory();
  resetSealedForTests();
  resetHandoverMarkForTests();
  resetVaultForTests(testHolder());
}

/** Another person (or nobody) holds the device from now on; the databases stay. */
export function switchHolder(holder: Holder | null | Promise<Holder | null>) {
  resetVaultForTests(holder);
}

export function question(id: number, Type: Question["Type"], AllowMultipleAnswers = false): Question {
  return {
    Id: id,
    CategoryId: 1,
    SurveyId: 7,
    ParentAnswerOptionId: null,
    Title: `Q${id}`,
    Type,
    Sort: id,
    AllowFileAttachments: true,
    AllowMultipleAnswers,
    Unit: null,
    IsTestQuestion: false,
    ImageSrc: null,
    Dependence: null,
    Hint: null,
    Codes: [],
    AnswerOptions: [],
  };
}

export const survey = { Id: 7, Title: "Herz", Hash: "h1" } as Pick<Survey, "Id" | "Title" | "Hash">;

export function ctx(patientId: string, extra: Partial<EntryContext> = {}): EntryContext {
  return { survey, patientId, surveyUserDataId: 3, userId: "user-sub", ...extra };
}

/** A fake fetch: answers each request with the next scripted reply and records what was sent. */
export function scriptedFetch(replies: ((url: string, init: RequestInit) => Response | Promise<Response>)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new TypeError("Failed to fetch");
    return reply(url, init);
  }) as typeof fetch;
  return { fetch: fn, calls };
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
export const offline = () => {
  throw new TypeError("Failed to fetch");
};
