import { useForm } from "@conform-to/react";
import { useEffect, useRef } from "react";
import type { $ZodType } from "zod/v4/core";
import { parseForm } from "~/domain/forms";

/** A field's errors by name, as Conform keeps them (`entries[2].text`, `markers`, `title`). */
export type FormErrors = Record<string, string[] | null | undefined>;

/**
 * Conform's loop for an editor modal whose form holds lists the modal keeps itself (entries, markers):
 * the one schema checks the form's fields in the browser before anything is sent (decision 025), a bad
 * field is named beside it, and the first one takes the focus. A list changed by its buttons (an entry
 * added, removed or moved) fires no input event, so once a save was tried the form is checked again after
 * each change of `lists`.
 */
export function useListForm<Schema extends $ZodType>(
  schema: Schema,
  {
    lists,
    focusOf,
    onValid,
  }: {
    lists: readonly unknown[];
    /** The id of the element to focus for these errors (the first in the form's order); null: none. */
    focusOf: (errors: FormErrors) => string | null;
    /** Called with a form the schema took. */
    onValid: () => void;
  },
) {
  const tried = useRef(false);
  const [form] = useForm({
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => {
      const submission = parseForm(formData, schema);
      // A save (not a check while typing): Conform focuses a named field; a list's own message or the image
      // field is reached from here, after that.
      if (submission.status !== undefined) tried.current = true;
      if (submission.status === "error") {
        const target = focusOf(submission.error ?? {});
        requestAnimationFrame(() => (target ? document.getElementById(target)?.focus() : undefined));
      }
      return submission;
    },
    onSubmit: (event, { submission }) => {
      // Saved through the API from the page (section 7), not posted.
      event.preventDefault();
      if (submission?.status === "success") onValid();
    },
  });
  useEffect(() => {
    if (tried.current) form.validate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the lists are the dependencies
  }, lists);
  return form;
}

/** Keys of the list's items whose `${list}[i].text` has an error: Conform names a list's fields by position. */
export function invalidItemKeys(errors: FormErrors, list: string, items: readonly { key: number }[]): number[] {
  return items.filter((_, i) => (errors[`${list}[${i}].text`]?.length ?? 0) > 0).map((item) => item.key);
}

/** The first message of a field, if it has one. */
export const firstError = (errors: FormErrors, name: string): string | undefined => errors[name]?.[0] ?? undefined;
