import { Form, useSubmit } from "@remix-run/react";
import { Field } from "./Field";
import { useEffect, useId, useRef } from "react";

/** Search runs this long after typing stops (section 9). */
export const SEARCH_DEBOUNCE_MS = 600;

interface SearchBoxProps {
  q: string;
  label: string;
  placeholder: string;
  buttonLabel: string;
  /** Extra query parameters kept when searching. */
  keep?: Record<string, string>;
  /** The query parameter of the search text (default q). */
  name?: string;
  /** Where the search goes (default: this page); a hash in it is kept. */
  action?: string;
}

/** A search typed and not yet sent is kept for this long in the tab, in case the page is drawn anew meanwhile. */
const TYPED_SEARCH_MS = 60_000;

const typedKey = (name: string) => `search-typed:${window.location.pathname}:${name}`;

function keepTypedSearch(name: string, text: string) {
  try {
    window.sessionStorage.setItem(typedKey(name), JSON.stringify({ text, at: Date.now() }));
  } catch {
    // Storage refused (private mode, full): the field still holds the text.
  }
}

function typedSearch(name: string): string | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(typedKey(name)) ?? "null") as {
      text: string;
      at: number;
    } | null;
    return kept && Date.now() - kept.at < TYPED_SEARCH_MS ? kept.text : null;
  } catch {
    return null;
  }
}

function forgetTypedSearch(name: string) {
  try {
    window.sessionStorage.removeItem(typedKey(name));
  } catch {
    // Nothing kept.
  }
}

/**
 * A GET form: without JavaScript it searches on submit; with it, 600 ms after typing stops or at once
 * on the search icon.
 */
export function SearchBox({ q, label, placeholder, buttonLabel, keep = {}, name = "q", action }: SearchBoxProps) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const later = (form: HTMLFormElement | null) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), SEARCH_DEBOUNCE_MS);
  };
  useEffect(() => {
    const field = input.current;
    if (field) {
      // Typed while the page was drawn again (its data settling, a reload) and not searched yet: back in the
      // field, and searched.
      const kept = typedSearch(name);
      if (kept !== null && kept !== q && field.value === q) field.value = kept;
      // Typed before the page's script ran (a slow device): searched as if typed now.
      if (field.value !== q) later(field.form);
      else forgetTypedSearch(name);
    }
    return () => clearTimeout(timer.current);
    // Once, when the page starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Searched: nothing typed is waiting any more.
  useEffect(() => {
    if (typedSearch(name) === q) forgetTypedSearch(name);
  }, [name, q]);
  return (
    <Form method="get" action={action} role="search" className="search" onSubmit={() => clearTimeout(timer.current)}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Field id={id} label={label} layout="inline">
        <input
          id={id}
          type="search"
          name={name}
          defaultValue={q}
          placeholder={placeholder}
          autoComplete="off"
          className="search__input"
          ref={input}
          onChange={(event) => {
            keepTypedSearch(name, event.currentTarget.value);
            later(event.currentTarget.form);
          }}
        />
      </Field>
      <button type="submit" className="search__button" title={buttonLabel}>
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
      </button>
    </Form>
  );
}
