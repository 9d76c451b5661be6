import "fake-indexeddb/auto";
import { createStore, entries, get, set } from "idb-keyval";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countEntries, getEntry, recordAnswer } from "./fill-store";
import { listEntries } from "./fill-sync-store";
import { lockedWork } from "./locked-work";
import { personStore, resetSealedForTests } from "./sealed";
import { getSurvey, saveSurvey } from "./survey-store";
import { ctx, question } from "./test-support";
import { beginPerson, currentHolder, lockDevice, personMarks, resetVaultForTests } from "./vault";
import type { Survey } from "~/domain/survey";

/** The server's answer to GET /users/current/offline-key for each person, as a fake fetch. */
const people = {
  anna: { KeyId: "a0a0a0a0a0a0a0a0a0a0a0a0", Key: Buffer.alloc(32, 1).toString("base64url") },
  ben: { KeyId: "b0b0b0b0b0b0b0b0b0b0b0b0", Key: Buffer.alloc(32, 2).toString("base64url") },
};
type Name = keyof typeof people;
let signedIn: Name | null = null;
let keyRequests = 0;
const realFetch = globalThis.fetch;

const person = (name: Name) => ({ holder: people[name].KeyId, userId: name });
const text = question(19, "FreeText");
const survey = { Id: 7, Title: "Dekubitus", Hash: "h1", Categories: [] } as unknown as Survey;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetSealedForTests();
  resetVaultForTests();
  keyRequests = 0;
  globalThis.fetch = (async (url: RequestInfo | URL) => {
    if (!String(url).endsWith("/users/current/offline-key")) throw new TypeError("Failed to fetch");
    keyRequests += 1;
    if (!signedIn) return new Response(JSON.stringify({ Type: "UNAUTHORIZED" }), { status: 401 });
    return new Response(JSON.stringify(people[signedIn]), { status: 200 });
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The page of a person signed in on this device starts: it settles the holder first. */
async function signIn(name: Name) {
  signedIn = name;
  resetVaultForTests();
  return beginPerson(person(name));
}

describe("a shared device's keys", () => {
  it("are fetched once for a person, kept for them (also offline), and forgotten at sign-out", async () => {
    const anna = await signIn("anna");
    expect(anna?.tag).toBe(people.anna.KeyId);
    expect(keyRequests).toBe(1);
    // The next page of the same person, and a page offline, use the kept keys without asking.
    resetVaultForTests();
    expect((await beginPerson(person("anna")))?.tag).toBe(anna?.tag);
    resetVaultForTests();
    expect((await beginPerson(undefined))?.tag).toBe(anna?.tag);
    expect(keyRequests).toBe(1);
    // Kept as keys that cannot be read out.
    const record = await get<{ data: CryptoKey; names: CryptoKey; stream: CryptoKey }>(
      "current",
      createStore("offline-device", "holder"),
    );
    expect([record?.data.extractable, record?.names.extractable, record?.stream.extractable]).toEqual([
      false,
      false,
      false,
    ]);

    await lockDevice();
    expect(await currentHolder()).toBeNull();
    expect(await get("current", createStore("offline-device", "holder"))).toBeUndefined();
    expect((await personMarks()).find((m) => m.tag === anna?.tag)?.lockedAt).toBeTruthy();
  });

  it("are another person's keys when another person signs in, the first person's forgotten first", async () => {
    await signIn("anna");
    const ben = await signIn("ben");
    expect(ben?.tag).toBe(people.ben.KeyId);
    expect(keyRequests).toBe(2);
    const marks = await personMarks();
    expect(marks.find((m) => m.tag === people.anna.KeyId)?.lockedAt).toBeTruthy();
    expect(marks.find((m) => m.tag === people.ben.KeyId)?.lockedAt).toBeUndefined();
  });

  it("are nobody's when a page is rendered for nobody (the session ended), and none come offline", async () => {
    await signIn("anna");
    resetVaultForTests();
    expect(await beginPerson(null)).toBeNull();
    signedIn = "anna";
    globalThis.fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    resetVaultForTests();
    expect(await beginPerson(person("anna"))).toBeNull();
  });
});

describe("one person's offline work on a shared device", () => {
  it("is theirs alone: another person neither lists, counts, reads nor finds it in clear; it is there again for them", async () => {
    await signIn("anna");
    await saveSurvey(survey);
    const anna = ctx("GERAET_1", { userId: "anna" });
    await recordAnswer(anna, text, { TextResponse: "Druckstelle Ferse" });
    expect(await countEntries()).toBe(1);

    // In the page's storage: ciphertext under names that tell nothing.
    const raw = JSON.stringify(await entries(personStore({ tag: people.anna.KeyId }, "fills-7")));
    expect(raw).not.toMatch(/GERAET_1|Druckstelle|Dekubitus/);
    const surveys = await entries(personStore({ tag: people.anna.KeyId }, "surveys"));
    expect(JSON.stringify(surveys)).not.toContain("Dekubitus");

    await signIn("ben");
    expect(await countEntries()).toBe(0);
    expect(await listEntries()).toEqual([]);
    expect(await getEntry(7, "GERAET_1")).toBeUndefined();
    expect(await getSurvey(7)).toBeUndefined();
    expect(await lockedWork()).toMatchObject({ count: 1, old: false });
    // Ben's own work lives beside it.
    await recordAnswer(ctx("GERAET_1", { userId: "ben" }), text, { TextResponse: "andere Person" });
    expect((await listEntries()).map((e) => e.answers[19])).toEqual([{ TextResponse: "andere Person" }]);

    await signIn("anna");
    expect((await getEntry(7, "GERAET_1"))?.answers[19]).toEqual({ TextResponse: "Druckstelle Ferse" });
    expect((await getSurvey(7))?.Title).toBe("Dekubitus");
    expect(await lockedWork()).toMatchObject({ count: 1 });
  });

  it("says after 30 days that it has waited long, and deletes nothing", async () => {
    await signIn("anna");
    await recordAnswer(ctx("ALT_1", { userId: "anna" }), text, { TextResponse: "alt" });
    await signIn("ben");
    const later = Date.now() + 31 * 86_400_000;
    expect(await lockedWork(later)).toMatchObject({ count: 1, old: true });
    await signIn("anna");
    expect((await getEntry(7, "ALT_1"))?.answers[19]).toEqual({ TextResponse: "alt" });
  });

  it("of an earlier version, in clear, goes to the person who made it and to nobody else", async () => {
    const old = createStore("survey-offline-7", "patients");
    const entry = (patientId: string, userId: string) => ({
      surveyId: 7,
      surveyTitle: "Dekubitus",
      surveyHash: "h1",
      patientId,
      fillId: `fill${patientId}`,
      status: "Open",
      answers: { 19: { TextResponse: `von ${userId}` } },
      preliminaryAnswers: {},
      questionTypes: {},
      notSynced: true,
      close: false,
      overwrite: false,
      upload: { files: {}, ssiUserDataId: 1, userId },
      rev: 1,
      modified: new Date().toISOString(),
    });
    await set("ALT_A", entry("ALT_A", "anna"), old);
    await set("ALT_B", entry("ALT_B", "ben"), old);

    await signIn("anna");
    expect((await listEntries()).map((e) => e.patientId)).toEqual(["ALT_A"]);
    expect(await get("ALT_A", old)).toBeUndefined();
    expect(await lockedWork()).toMatchObject({ count: 1 });

    await signIn("ben");
    expect((await listEntries()).map((e) => e.patientId)).toEqual(["ALT_B"]);
  });
});
