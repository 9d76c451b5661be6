import { parseWithZod } from "@conform-to/zod/v4";
import type { $ZodErrorMap, $ZodType } from "zod/v4/core";

/**
 * How every form is read (decision 025): its one zod schema, through Conform. A field's message is a
 * locale key, translated on the page. A check that names no message of its own gets one of these two,
 * never zod's English default ("expected string, received undefined").
 */
export const formMessages = { required: "forms.required", invalid: "forms.invalid" } as const;

export const formErrorMap: $ZodErrorMap = (issue) =>
  issue.input === undefined || issue.input === "" ? formMessages.required : formMessages.invalid;

/**
 * Reads a form with its schema, on the server (the action) and in the browser (useForm's onValidate) alike.
 * `keepEmpty` leaves an empty field as "" instead of absent, for a form whose schema tells the two apart.
 */
export function parseForm<Schema extends $ZodType>(
  payload: FormData | URLSearchParams,
  schema: Schema,
  options: { keepEmpty?: boolean } = {},
) {
  return parseWithZod(payload, { schema, error: formErrorMap, disableAutoCoercion: options.keepEmpty });
}
