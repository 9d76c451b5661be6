import { IdParamSchema } from "~/domain/id-schema";
import { z } from "~/domain/zod";

/** A positive integer from a path or query string. */
export const idParam = IdParamSchema;

/** "true" / "false" (any case) from a query string. */
export const queryBool = z
  .enum(["true", "false", "True", "False", "TRUE", "FALSE", "1", "0"])
  .transform((v) => v.toLowerCase() === "true" || v === "1");

export const IdParams = z.object({ id: idParam });
export const SurveyQuery = z.object({ surveyId: idParam });
export const ItemParams = IdParams;

/** ?newPosition&surveyId of the reorder calls: the 0-based target index among the item's siblings. */
export const ReorderQuery = z.object({ newPosition: z.coerce.number().int().min(0).max(100_000), surveyId: idParam });
