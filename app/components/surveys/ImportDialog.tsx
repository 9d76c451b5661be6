import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import { Field } from "~/components/ui/Field";
import { Modal } from "~/components/ui/Modal";

/** The outcome of a step, its sentences translated by the server. */
export type ImportState =
  | { import: "error"; message: string }
  | { import: "preview"; summary: string; notKeptTitle: string; notKept: string[]; text: string; type: string }
  | { import: "created"; surveyId: number; summary: string; notKeptTitle: string; notKept: string[] }
  | null;

/** The dialog's fixed texts, translated by the server while the dialog is open. */
export type ImportTexts = Record<
  "title" | "file" | "help" | "check" | "notKeptNote" | "allKept" | "another" | "create" | "cancel" | "open" | "close",
  string
>;

interface ImportDialogProps {
  /** Null while closed: the texts come only with an open dialog (the list's language file stays small). */
  texts: ImportTexts | null;
  state: ImportState;
  /** The list without the dialog in its URL (closing goes there). */
  closeHref: string;
  /** The dialog with a fresh file choice. */
  againHref: string;
  formKey: string;
}

/** What cannot be kept, under its heading, with where the list stays. */
function NotKept({ title, lines, note }: { title: string; lines: string[]; note: string }) {
  return (
    <>
      <h3>{title}</h3>
      <ul data-testid="import-not-kept">
        {lines.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
      <p>{note}</p>
    </>
  );
}

/**
 * Import of an HL7 FHIR R4 Questionnaire as a Draft survey (docs/decisions/040-fhir.md): choose a file, read
 * what will be made and what cannot be kept, then create; a survey made with losses is shown with them once
 * more before it is opened. Its open state lives in the URL and its steps are form posts, so it works without
 * JavaScript; the outcome of each step is announced and takes focus.
 */
export function ImportDialog({ texts, state, closeHref, againHref, formKey }: ImportDialogProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const fileId = useId();
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After the page's data is read again: until then the button is disabled and cannot take focus.
    if (state && !busy) body.current?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, [state, busy]);
  const t = (key: keyof ImportTexts) => texts?.[key] ?? "";
  const preview = state?.import === "preview" ? state : null;
  const created = state?.import === "created" ? state : null;
  const error = state?.import === "error" ? state : null;

  return (
    <Modal open={texts != null} title={t("title")} size="s" onClose={close}>
      <div ref={body}>
        {created ? (
          <>
            <div role="status">
              <p>{created.summary}</p>
              <NotKept title={created.notKeptTitle} lines={created.notKept} note={t("notKeptNote")} />
            </div>
            <div className="modal__actions">
              <Link className="btn" to={closeHref} replace preventScrollReset>
                {t("close")}
              </Link>
              <Link className="btn btn--primary" to={`/survey/${created.surveyId}/edit#start`} data-autofocus>
                {t("open")}
              </Link>
            </div>
          </>
        ) : preview ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="import" />
            <input type="hidden" name="formKey" value={formKey} />
            <input type="hidden" name="text" value={preview.text} />
            <input type="hidden" name="type" value={preview.type} />
            <div role="status">
              <p>{preview.summary}</p>
              {preview.notKept.length > 0 ? (
                <NotKept title={preview.notKeptTitle} lines={preview.notKept} note={t("notKeptNote")} />
              ) : (
                <p>{t("allKept")}</p>
              )}
            </div>
            <div className="modal__actions">
              <Link className="btn" to={againHref} replace preventScrollReset>
                {t("another")}
              </Link>
              <button type="submit" className="btn btn--primary" disabled={busy} data-autofocus>
                {t("create")}
              </button>
            </div>
          </Form>
        ) : (
          <Form method="post" encType="multipart/form-data" preventScrollReset>
            <input type="hidden" name="intent" value="import-preview" />
            <Field id={fileId} label={t("file")} hint={t("help")} error={error?.message}>
              {(control) => (
                <input
                  {...control}
                  type="file"
                  name="file"
                  required
                  accept=".json,application/json,application/fhir+json"
                  data-autofocus
                />
              )}
            </Field>
            <div className="modal__actions">
              <Link className="btn" to={closeHref} replace preventScrollReset>
                {t("cancel")}
              </Link>
              <button type="submit" className="btn btn--primary" disabled={busy}>
                {t("check")}
              </button>
            </div>
          </Form>
        )}
      </div>
    </Modal>
  );
}
