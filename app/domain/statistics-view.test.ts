import fc from "fast-check";
import { isValidPatientId } from "~/domain/patient-id";
import { describe, expect, it } from "vitest";
import { readView, viewHref, writeView, type StatisticsView } from "./statistics-view";
import { contentLanguages } from "./content-languages";
import { respondentKinds } from "./respondents";

describe("statistics view in the URL", () => {
  it("reads filters, benchmark, category and toggles, with the defaults (percent on, pie and cloud off)", () => {
    const view = readView(
      new URLSearchParams(
        "patient=P_1&patient=P_2&team=3&team=3&team=5&from=01.02.2026&to=31.12.2026&pq7=11&pq7=12&pq9=20&benchmark=42&category=8&pie=1",
      ),
    );
    expect(view).toEqual({
      filters: {
        PatientIds: ["P_1", "P_2"],
        TeamIdsFilter: [3, 5],
        PreliminaryQuestionsSelection: { "7": [11, 12], "9": [20] },
        StartDateTime: "01.02.2026",
        EndDateTime: "31.12.2026",
      },
      benchmark: 42,
      category: 8,
      percent: true,
      pie: true,
      cloud: false,
      language: null,
    });
    expect(readView(new URLSearchParams("")).percent).toBe(true);
    expect(readView(new URLSearchParams("raw=1")).percent).toBe(false);
  });

  it("keeps every valid patient id, also with letters beyond ASCII, as the start page takes them", () => {
    const view = readView(new URLSearchParams("patient=Müller_1&patient=Øre2&patient=a-b&patient="));
    expect(view.filters.PatientIds).toEqual(["Müller_1", "Øre2"]);
    for (const id of view.filters.PatientIds!) expect(isValidPatientId(id)).toBe(true);
  });

  it("leaves out what is malformed", () => {
    const view = readView(
      new URLSearchParams(
        "patient=a-b&team=x&team=-1&from=2026-01-01&to=32.01.2026&pqx=1&pq3=y&benchmark=0&category=1.5",
      ),
    );
    expect(view.filters).toEqual({});
    expect(view.benchmark).toBeNull();
    expect(view.category).toBeNull();
  });

  it("writes what it reads (round trip) and leaves defaults out of links", () => {
    const arbitraryView = fc.record({
      filters: fc.record(
        {
          PatientIds: fc.uniqueArray(fc.stringMatching(/^[\p{L}\p{Nd}_]{1,12}$/u), { minLength: 1, maxLength: 4 }),
          TeamIdsFilter: fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 4 }),
          StartDateTime: fc.constant("05.03.2026"),
          PreliminaryQuestionsSelection: fc.dictionary(
            fc.integer({ min: 1, max: 999 }).map(String),
            fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: 3 }),
            { minKeys: 1, maxKeys: 3 },
          ),
          // In the order of the content languages, as the address is read back.
          Languages: fc.subarray([...contentLanguages], { minLength: 1 }),
          Respondents: fc.subarray([...respondentKinds], { minLength: 1 }),
        },
        { requiredKeys: [] },
      ),
      benchmark: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      category: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      percent: fc.boolean(),
      pie: fc.boolean(),
      cloud: fc.boolean(),
      language: fc.option(fc.constantFrom(...contentLanguages), { nil: null }),
    });
    fc.assert(
      fc.property(arbitraryView, (view: StatisticsView) => {
        expect(readView(writeView(view))).toEqual(view);
      }),
    );
    const plain = readView(new URLSearchParams(""));
    expect(viewHref(plain, {})).toBe("?");
    expect(viewHref(plain, { pie: true })).toBe("?pie=1");
  });

  it("reads the labels' language and the cases' languages, known ones only (docs/decisions/056)", () => {
    const view = readView(new URLSearchParams("lang=tr&caseLang=ar&caseLang=xx&caseLang=de&caseLang=ar"));
    expect(view.language).toBe("tr");
    expect(view.filters.Languages).toEqual(["de", "ar"]);
    expect(readView(new URLSearchParams("lang=fr")).language).toBeNull();
    expect(readView(new URLSearchParams("caseLang=fr")).filters).toEqual({});
    expect(viewHref(view, { language: "ar" })).toBe("?caseLang=de&caseLang=ar&lang=ar");
  });

  it("reads who answered, known kinds only, in their order (docs/decisions/057)", () => {
    const view = readView(new URLSearchParams("respondent=handover&respondent=patient&respondent=staff"));
    expect(view.filters.Respondents).toEqual(["staff", "handover"]);
    expect(readView(new URLSearchParams("respondent=")).filters).toEqual({});
    expect(viewHref(view, {})).toBe("?respondent=staff&respondent=handover");
  });
});
