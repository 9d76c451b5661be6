import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NumericalRequestSchema, PatientIdSchema, PatientIdTextSchema } from "./fill-requests";
import {
  isValidNumericalResponse,
  typedToNumber,
  isValidTextResponse,
  roundToStep,
  storedToWireDateTime,
  TEXT_RESPONSE_MAX_LENGTH,
  typedToWireDateTime,
  wireToStoredDateTime,
} from "./response-values";

describe("date-time answers", () => {
  it("read DD.MM.YYYY HH:mm and keep the wall-clock time", () => {
    expect(wireToStoredDateTime("24.12.2026 18:30")).toBe("2026-12-24T18:30");
    expect(wireToStoredDateTime("29.02.2024 00:00")).toBe("2024-02-29T00:00");
    expect(storedToWireDateTime("2026-12-24T18:30")).toBe("24.12.2026 18:30");
  });

  it("refuse what is not a real date and time", () => {
    for (const bad of ["29.02.2023 10:00", "31.04.2026 10:00", "01.13.2026 10:00", "01.01.2026 24:00"]) {
      expect(wireToStoredDateTime(bad)).toBeNull();
    }
    for (const bad of ["01.01.2026 10:60", "2026-01-01 10:00", "1.1.2026 10:00", "01.01.2026", ""]) {
      expect(wireToStoredDateTime(bad)).toBeNull();
    }
    expect(storedToWireDateTime(null)).toBe("");
  });

  it("are read as typed into the wire format, or refused", () => {
    expect(typedToWireDateTime("24.12.2026 18:30")).toBe("24.12.2026 18:30");
    expect(typedToWireDateTime(" 1.2.2026, 8:05 ")).toBe("01.02.2026 08:05");
    expect(typedToWireDateTime("٣٠.١١.٢٠٢٦ ٠٨:١٥")).toBe("30.11.2026 08:15");
    expect(typedToWireDateTime("٣٠.٠٢.٢٠٢٦ ٠٨:١٥")).toBeNull();
    expect(typedToWireDateTime("01.02.2026   08:05")).toBe("01.02.2026 08:05");
    for (const bad of ["31.02.2026 10:00", "24.12.26 18:30", "24.12.2026", "24.12.2026 18.30", "morgen", ""]) {
      expect(typedToWireDateTime(bad)).toBeNull();
    }
  });

  it("round-trip every valid date and time (property)", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1900-01-01T00:00Z"), max: new Date("2199-12-31T23:59Z"), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 16);
          const [y, m, rest] = iso.split("-");
          const wire = `${rest.slice(0, 2)}.${m}.${y} ${rest.slice(3)}`;
          expect(wireToStoredDateTime(wire)).toBe(iso);
          expect(storedToWireDateTime(iso)).toBe(wire);
        },
      ),
    );
  });
});

describe("numerical answers", () => {
  it("take finite numbers in steps of 0.01", () => {
    for (const ok of [0, 1, -3.5, 0.01, 72.35, 0.1 + 0.2, 1e9 + 0.01]) expect(isValidNumericalResponse(ok)).toBe(true);
    for (const bad of [0.001, 1.234, Number.NaN, Infinity, -Infinity, 1e13])
      expect(isValidNumericalResponse(bad)).toBe(false);
    expect(roundToStep(0.1 + 0.2)).toBe(0.3);
    expect(roundToStep(-0.001)).toBe(0);
  });

  it("the request schema refuses the rest", () => {
    const base = { PatientId: "P_1", SurveyId: 1, QuestionId: 2 };
    expect(NumericalRequestSchema.safeParse({ ...base, NumericalResponse: 72.5 }).success).toBe(true);
    expect(NumericalRequestSchema.safeParse({ ...base, NumericalResponse: 72.555 }).success).toBe(false);
    expect(NumericalRequestSchema.safeParse({ ...base, NumericalResponse: "72" }).success).toBe(false);
  });
});

describe("text answers and patient ids in requests", () => {
  it("text is limited in length", () => {
    expect(isValidTextResponse("x".repeat(TEXT_RESPONSE_MAX_LENGTH))).toBe(true);
    expect(isValidTextResponse("x".repeat(TEXT_RESPONSE_MAX_LENGTH + 1))).toBe(false);
  });

  it("a case's patient id may not be empty; a typed prefix may", () => {
    expect(PatientIdSchema.safeParse("").success).toBe(false);
    expect(PatientIdSchema.safeParse("P-1").success).toBe(false);
    expect(PatientIdTextSchema.safeParse("").success).toBe(true);
  });
});

describe("typedToNumber", () => {
  it("reads a decimal comma or point, trimmed, on the 0.01 step", () => {
    expect(typedToNumber("1,5")).toBe(1.5);
    expect(typedToNumber(" 2.345 ")).toBe(2.35);
    expect(typedToNumber("-0,001")).toBe(0);
    expect(typedToNumber("80.55")).toBe(80.55);
  });

  it("reads the digits of Arabic script, its decimal separator and the minus sign", () => {
    expect(typedToNumber("٧")).toBe(7);
    expect(typedToNumber("١٢٫٥")).toBe(12.5);
    expect(typedToNumber("٣,٢٥")).toBe(3.25);
    expect(typedToNumber("۸۰")).toBe(80);
    expect(typedToNumber("−٤")).toBe(-4);
    expect(typedToNumber("٧a")).toBeNull();
  });

  it("refuses what is no number or out of range", () => {
    for (const text of ["", "  ", "abc", "1,2,3", "1e13", "Infinity"]) expect(typedToNumber(text)).toBeNull();
  });

  it("gives only values the API takes", () => {
    for (const text of ["0,01", "123456789,99", "-5", "3.14159"]) {
      const n = typedToNumber(text);
      expect(n !== null && isValidNumericalResponse(n)).toBe(true);
    }
  });
});
