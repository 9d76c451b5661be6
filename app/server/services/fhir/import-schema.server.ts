import { z } from "zod";

/**
 * The parts of an R4 Questionnaire the import reads (docs/decisions/040-fhir.md). Loose objects: whatever
 * else an item carries is kept in the parse, so that the import can list it as not kept.
 */

const CodingSchema = z.looseObject({
  system: z.string().optional(),
  code: z.string().optional(),
  display: z.string().optional(),
  extension: z.array(z.looseObject({ url: z.string() })).optional(),
});
export type ImportCoding = z.infer<typeof CodingSchema>;

export const ExtensionSchema = z.looseObject({ url: z.string() });
export type ImportExtension = z.infer<typeof ExtensionSchema> & Record<string, unknown>;

const EnableWhenSchema = z.looseObject({ question: z.string(), operator: z.string() });
export type ImportEnableWhen = z.infer<typeof EnableWhenSchema> & Record<string, unknown>;

const AnswerOptionSchema = z.looseObject({
  valueCoding: CodingSchema.optional(),
  valueString: z.string().optional(),
  valueInteger: z.number().optional(),
  valueDate: z.string().optional(),
  valueTime: z.string().optional(),
  initialSelected: z.boolean().optional(),
  extension: z.array(ExtensionSchema).optional(),
});
export type ImportAnswerOption = z.infer<typeof AnswerOptionSchema>;

export interface ImportItem {
  linkId: string;
  text?: string;
  type: string;
  repeats?: boolean;
  required?: boolean;
  readOnly?: boolean;
  extension?: ImportExtension[];
  enableWhen?: ImportEnableWhen[];
  enableBehavior?: string;
  answerOption?: ImportAnswerOption[];
  answerValueSet?: string;
  item?: ImportItem[];
  [other: string]: unknown;
}

export const ItemSchema: z.ZodType<ImportItem> = z.looseObject({
  linkId: z.string().min(1),
  text: z.string().optional(),
  type: z.string(),
  repeats: z.boolean().optional(),
  required: z.boolean().optional(),
  readOnly: z.boolean().optional(),
  extension: z.array(ExtensionSchema).optional(),
  enableWhen: z.array(EnableWhenSchema).optional(),
  enableBehavior: z.string().optional(),
  answerOption: z.array(AnswerOptionSchema).optional(),
  answerValueSet: z.string().optional(),
  get item() {
    return z.array(ItemSchema).optional();
  },
}) as z.ZodType<ImportItem>;

const ConceptSchema = z.looseObject({
  code: z.string(),
  system: z.string().optional(),
  display: z.string().optional(),
});

export const ValueSetSchema = z.looseObject({
  resourceType: z.literal("ValueSet"),
  id: z.string().optional(),
  url: z.string().optional(),
  compose: z
    .looseObject({
      include: z.array(z.looseObject({ system: z.string().optional(), concept: z.array(ConceptSchema).optional() })),
    })
    .optional(),
  expansion: z.looseObject({ contains: z.array(ConceptSchema).optional() }).optional(),
});
export type ImportValueSet = z.infer<typeof ValueSetSchema>;

export const QuestionnaireSchema = z.looseObject({
  resourceType: z.literal("Questionnaire"),
  title: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  extension: z.array(ExtensionSchema).optional(),
  contained: z.array(z.looseObject({ resourceType: z.string() })).optional(),
  item: z.array(ItemSchema).optional(),
});
export type ImportQuestionnaire = z.infer<typeof QuestionnaireSchema>;
