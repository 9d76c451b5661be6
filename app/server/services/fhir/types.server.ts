/**
 * The parts of FHIR R4's Questionnaire and QuestionnaireResponse the product writes and reads
 * (docs/decisions/040-fhir.md). Written here, not taken from a package: the server needs only these shapes.
 */

export interface Extension {
  url: string;
  valueBoolean?: boolean;
  valueInteger?: number;
  valueDecimal?: number;
  valueString?: string;
  valueCoding?: Coding;
  extension?: Extension[];
  [value: `value${string}`]: unknown;
}

export interface Coding {
  system?: string;
  code?: string;
  display?: string;
  extension?: Extension[];
}

export interface EnableWhen {
  question: string;
  operator: string;
  answerCoding?: Coding;
  [answer: `answer${string}`]: unknown;
}

export interface FhirItem {
  linkId: string;
  code?: Coding[];
  text?: string;
  type: string;
  readOnly?: boolean;
  repeats?: boolean;
  required?: boolean;
  extension?: Extension[];
  enableWhen?: EnableWhen[];
  enableBehavior?: "all" | "any";
  answerOption?: { valueCoding?: Coding; extension?: Extension[]; [value: `value${string}`]: unknown }[];
  answerValueSet?: string;
  item?: FhirItem[];
}

export interface Questionnaire {
  resourceType: "Questionnaire";
  id?: string;
  url?: string;
  title?: string;
  name?: string;
  status: "draft" | "active" | "retired" | "unknown";
  description?: string;
  item?: FhirItem[];
  contained?: unknown[];
  [other: string]: unknown;
}

/** HL7's own extensions and codes the mapping uses. */
export const HL7 = {
  unit: "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
  /** An answer's score in R4 (on the answer option or its coding). */
  ordinalValue: "http://hl7.org/fhir/StructureDefinition/ordinalValue",
  /** An answer's score in SDC and R5; what `weight()` reads besides ordinalValue. */
  itemWeight: "http://hl7.org/fhir/StructureDefinition/itemWeight",
  signature: "http://hl7.org/fhir/StructureDefinition/questionnaireresponse-signature",
  itemControl: "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
  itemControlSystem: "http://hl7.org/fhir/questionnaire-item-control",
  variable: "http://hl7.org/fhir/StructureDefinition/variable",
  calculatedExpression: "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
};

/**
 * The product's own extensions, under `<public URL>/fhir/StructureDefinition/`. An import knows them by this
 * path's end, whichever installation wrote them.
 */
export const EXT = {
  exitAnswer: "/fhir/StructureDefinition/exit-answer",
  weightingState: "/fhir/StructureDefinition/weighting-state",
  /** A test question's weight (1–3), apart from the answer's score. */
  testWeight: "/fhir/StructureDefinition/test-weight",
  imageMarker: "/fhir/StructureDefinition/image-marker",
  image: "/fhir/StructureDefinition/image",
  testQuestion: "/fhir/StructureDefinition/test-question",
};
