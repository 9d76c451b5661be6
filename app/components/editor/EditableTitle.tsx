import { Field } from "~/components/ui/Field";
import { useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { useToast } from "~/components/ui/Toaster";
import { SURVEY_TITLE_MAX } from "~/domain/editor-forms";
import { SaveStatus, useUnsavedMark, type SaveState } from "./saving";
import { Hyphenated } from "~/components/ui/Hyphenated";

interface Result {
  ok: boolean;
  error?: string;
  /** A refusal because the survey is no longer a Draft: its status now. */
  status?: string;
}

/** The answers of title saves already met: each is said once, also by a title drawn anew after it arrived. */
const met = new WeakSet<Result>();

/**
 * The survey title, edited in place: the edit toggle (or Enter) switches between reading and editing;
 * leaving the field saves it; Escape drops the edit and saves nothing; a failed save restores the old
 * title. While a changed title is being typed it is marked unsaved and the leave guard asks (saving.tsx). Without JavaScript the title is a plain field of the surrounding form, shown after a refused save as
 * it was typed (`typed`) with its message (`error`).
 */
export function EditableTitle({
  title,
  editable,
  hydrated,
  typed,
  error,
}: {
  title: string;
  editable: boolean;
  hydrated: boolean;
  typed?: string;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  // Keyed: the header is drawn anew when the survey's status changes (a refusal because it was published
  // meanwhile brings the new status), and its title must still meet the answer of the save it sent.
  const fetcher = useFetcher<Result>({ key: "survey-title" });
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(title);
  const saved = useRef(title);
  const input = useRef<HTMLInputElement>(null);
  /** Set by Escape: the blur that follows (if the browser sends one) is not a save. */
  const cancelled = useRef(false);
  const [outcome, setOutcome] = useState<SaveState>("idle");
  const typing = editing && value.trim() !== saved.current;
  const state: SaveState = fetcher.state !== "idle" ? "saving" : typing ? "unsaved" : outcome;
  // Once sent, a title is the server's to keep: only one being typed holds the page (a guard while its
  // fetcher revalidates would hold the router up).
  useUnsavedMark("title", state === "unsaved");

  useEffect(() => {
    saved.current = title;
    setValue(title);
  }, [title]);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || met.has(fetcher.data)) return;
    met.add(fetcher.data);
    if (fetcher.data.ok) {
      saved.current = value.trim();
      setOutcome("saved");
    } else {
      setValue(saved.current);
      setOutcome("failed");
      const status = fetcher.data.status;
      // A survey published or archived meanwhile: said why, and the page shows it as it is now (read-only).
      if (status) {
        toast("error", t("editor.titleNotDraft", { status: t(`status.${status}`) }));
        revalidator.revalidate();
      } else {
        toast("error", t(fetcher.data.error ?? "errors.validation"));
      }
    }
    // Only the arrival of a new answer matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  // A title typed into the field the page has before its scripts ran: the field goes when they start, and
  // the heading that replaces it opens for editing with what was typed, the caret at its end.
  const typedEarly = useRef<string | null>(null);
  const earlyField = useRef<HTMLInputElement | null>(null);
  const keepEarly = (field: HTMLInputElement | null) => {
    const left = earlyField.current;
    if (!field && left && !left.readOnly && left.value !== (typed ?? title)) typedEarly.current = left.value;
    earlyField.current = field;
  };
  useEffect(() => {
    if (!hydrated || typedEarly.current === null) return;
    setValue(typedEarly.current);
    setEditing(true);
  }, [hydrated]);

  const toggle = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (!editing) {
      // The edit ended with its field's focus (Enter, Escape, the toggle clicked): focus goes on at the toggle,
      // where the next edit starts, not to the page's body. One left by Tab or a click elsewhere stays there.
      const lost = !document.activeElement || document.activeElement === document.body;
      if (wasEditing.current && lost) toggle.current?.focus();
      wasEditing.current = false;
      return;
    }
    wasEditing.current = true;
    // A new edit: an Escape of an earlier one no longer counts (the browser sends no blur for a field it
    // removes, so the flag may still be set).
    cancelled.current = false;
    input.current?.focus();
    if (typedEarly.current !== null) {
      const end = typedEarly.current.length;
      input.current?.setSelectionRange(end, end);
      typedEarly.current = null;
    }
  }, [editing]);

  const save = () => {
    const next = value.trim();
    if (next === saved.current) return;
    if (!next) {
      // A survey keeps a title: the blank one is not sent, and the saved one comes back.
      setValue(saved.current);
      toast("error", t("editor.titleRequired"));
      return;
    }
    fetcher.submit({ intent: "title", title: next }, { method: "post" });
  };

  if (!hydrated) {
    return (
      <Field id="survey-title" className="editor-title" label={t("editor.titleLabel")} error={error}>
        {(control) => (
          <input
            {...control}
            ref={keepEarly}
            name="title"
            className="input input--title"
            defaultValue={typed ?? title}
            readOnly={!editable}
            maxLength={SURVEY_TITLE_MAX}
            required
          />
        )}
      </Field>
    );
  }

  return (
    <div className="editor-title">
      {editing ? (
        <>
          <Field id="survey-title" label={t("editor.titleLabel")} layout="inline">
            <input
              ref={input}
              id="survey-title"
              className="input input--title"
              value={value}
              maxLength={SURVEY_TITLE_MAX}
              onChange={(e) => setValue(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  save();
                  setEditing(false);
                } else if (e.key === "Escape") {
                  e.preventDefault();
                  cancelled.current = true;
                  setValue(saved.current);
                  setEditing(false);
                }
              }}
              onBlur={() => {
                if (cancelled.current) cancelled.current = false;
                else save();
                setEditing(false);
              }}
            />
          </Field>
        </>
      ) : (
        <h1 className="editor-title__text" data-testid="survey-title">
          <Hyphenated text={value} />
        </h1>
      )}
      {editable ? <SaveStatus state={state} testId="title-save-state" /> : null}
      {editable ? (
        <button
          ref={toggle}
          type="button"
          className="btn btn--ghost"
          aria-pressed={editing}
          title={t("editor.editTitle")}
          onMouseDown={(e) => editing && e.preventDefault()}
          onClick={() => {
            if (editing) save();
            setEditing(!editing);
          }}
        >
          <span aria-hidden="true">✎</span>
        </button>
      ) : null}
    </div>
  );
}
