import { z } from "./zod";
import { MAX_ID } from "./ids";

/**
 * An id in a request body or a response: the database's positive 32-bit integer. The one schema every
 * request and response schema uses, so an id beyond the column's range is refused as a bad request
 * instead of reaching the database.
 */
export const IdSchema = z.number().int().positive().max(MAX_ID);

/** A positive integer from a path or query string. */
export const IdParamSchema = z.coerce.number().int().positive().max(MAX_ID);

/** An id as an object's key (JSON's keys are strings): plain decimal digits, in the same range. */
export const IdKeySchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "Expected an id")
  .refine((key) => Number(key) <= MAX_ID, `Expected an id up to ${MAX_ID}`);
