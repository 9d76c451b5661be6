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
  text?: string;
  type: string;
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

/** HL7's own extensions the mapping uses. */
export const HL7 = {
  unit: "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
  ordinalValue: "http://hl7.org/fhir/StructureDefinition/ordinalValue",
  signature: "http://hl7.org/fhir/StructureDefinition/questionnaireresponse-signature",
};

/**
 * The product's own extensions, under `<public URL>/fhir/StructureDefinition/`. An import knows them by this
 * path's end, whichever installation wrote them.
 */
export const EXT = {
  exitAnswer: "/fhir/StructureDefinition/exit-answer",
  weightingState: "/fhir/StructureDefinition/weighting-state",
  imageMarker: "/fhir/StructureDefinition/image-marker",
  image: "/fhir/StructureDefinition/image",
  testQuestion: "/fhir/StructureDefinition/test-question",
};
