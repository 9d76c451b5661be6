import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  generatePatientId,
  isPatientIdRequired,
  isValidPatientId,
  PATIENT_ID_MAX_LENGTH,
  patientIdProblem,
} from "./patient-id";

describe("patient id", () => {
  it("takes letters, digits and underscore only", () => {
    for (const ok of ["P_1", "123456789012", "Müller_3", "abc", "_"]) expect(isValidPatientId(ok)).toBe(true);
    for (const bad of ["P-1", "P 1", "a.b", "x/y", "a;drop", "%", "é́"]) expect(isValidPatientId(bad)).toBe(false);
  });

  it("empty is valid (nothing typed yet), too long is not", () => {
    expect(isValidPatientId("")).toBe(true);
    expect(isValidPatientId("a".repeat(PATIENT_ID_MAX_LENGTH))).toBe(true);
    expect(isValidPatientId("a".repeat(PATIENT_ID_MAX_LENGTH + 1))).toBe(false);
  });

  it("is mandatory unless the survey generates one", () => {
    expect(isPatientIdRequired(false)).toBe(true);
    expect(isPatientIdRequired(true)).toBe(false);
    expect(patientIdProblem("", false)).toBe("required");
    expect(patientIdProblem("", true)).toBeNull();
    expect(patientIdProblem("P-1", true)).toBe("invalid");
    expect(patientIdProblem("P_1", false)).toBeNull();
  });

  it("generated ids are 12 random digits, valid, and differ", () => {
    const ids = Array.from({ length: 200 }, () => generatePatientId());
    for (const id of ids) {
      expect(id).toMatch(/^\d{12}$/);
      expect(isValidPatientId(id)).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Every digit turns up in every position sooner or later.
    const firstDigits = new Set(Array.from({ length: 500 }, () => generatePatientId()[0]));
    expect(firstDigits.size).toBe(10);
  });

  it("accepts exactly the strings of letters, digits and underscore (property)", () => {
    const allowed = fc.constantFrom(..."abcXYZäöüß019_".split(""));
    fc.assert(
      fc.property(fc.array(allowed, { maxLength: PATIENT_ID_MAX_LENGTH }), (chars) => {
        expect(isValidPatientId(chars.join(""))).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(" ", "-", ".", "/", "\\", "'", '"', "\n", "%"), (s, bad) => {
        expect(isValidPatientId(s + bad)).toBe(false);
      }),
    );
  });
});
