import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "~/components/ui/Modal";

export type ImportState =
  | { import: "error"; key: string; vars?: Record<string, string>; detail?: string }
  | {
      import: "preview";
      preview: {
        Title: string;
        Categories: number;
        Questions: number;
        PreliminaryQuestions: number;
        NotKept: string[];
      };
      text: string;
    }
  | null;

interface ImportDialogProps {
  open: boolean;
  state: ImportState;
  /** The list without the dialog in its URL (closing goes there). */
  closeHref: string;
  /** The dialog with a fresh file choice. */
  againHref: string;
  formKey: string;
}

/**
 * Import of an HL7 FHIR R4 Questionnaire as a Draft survey (docs/decisions/040-fhir.md): choose a file, read
 * what will be made and what cannot be kept, then create. Its open state lives in the URL and its steps are
 * form posts, so it works without JavaScript; the outcome of each step is announced.
 */
export function ImportDialog({ open, state, closeHref, againHref, formKey }: ImportDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const fileId = useId();
  const helpId = useId();
  const errorId = useId();
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  // Each step's outcome takes focus: the button that creates the survey, or the file field with its error.
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After the page's data is read again: until then the button is disabled and cannot take focus.
    if (state && !busy) body.current?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, [state, busy]);
  const preview = state?.import === "preview" ? state.preview : null;
  const error = state?.import === "error" ? state : null;

  return (
    <Modal open={open} title={t("surveys.import.title")} size="s" onClose={close}>
      <div ref={body}>
        {preview && state?.import === "preview" ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="import" />
            <input type="hidden" name="formKey" value={formKey} />
            <input type="hidden" name="text" value={state.text} />
            <div role="status">
              <p>
                {t("surveys.import.summary", {
                  title: preview.Title,
                  categories: preview.Categories,
                  questions: preview.Questions,
                  preliminary: preview.PreliminaryQuestions,
                })}
              </p>
              {preview.NotKept.length > 0 ? (
                <>
                  <h3>{t("surveys.import.notKeptTitle", { count: preview.NotKept.length })}</h3>
                  <ul data-testid="import-not-kept">
                    {preview.NotKept.map((n, i) => (
                      <li key={i}>{n}</li>
                    ))}
                  </ul>
                  <p>{t("surveys.import.notKeptNote")}</p>
                </>
              ) : (
                <p>{t("surveys.import.allKept")}</p>
              )}
            </div>
            <div className="modal__actions">
              <Link className="btn" to={againHref} replace preventScrollReset>
                {t("surveys.import.another")}
              </Link>
              <button type="submit" className="btn btn--primary" disabled={busy} data-autofocus>
                {t("surveys.import.create")}
              </button>
            </div>
          </Form>
        ) : (
          <Form method="post" encType="multipart/form-data" preventScrollReset>
            <input type="hidden" name="intent" value="import-preview" />
            <div className="field">
              <label htmlFor={fileId} className="field__label">
                {t("surveys.import.file")}
              </label>
              <input
                id={fileId}
                type="file"
                name="file"
                required
                accept=".json,application/json,application/fhir+json"
                aria-describedby={error ? `${helpId} ${errorId}` : helpId}
                aria-invalid={error ? true : undefined}
                data-autofocus
              />
              <p id={helpId} className="field__hint">
                {t("surveys.import.help")}
              </p>
              {error ? (
                <p id={errorId} role="alert" className="field__error" data-testid="import-error">
                  {t(error.key, error.vars)}
                  {error.detail ? ` (${error.detail})` : null}
                </p>
              ) : null}
            </div>
            <div className="modal__actions">
              <Link className="btn" to={closeHref} replace preventScrollReset>
                {t("surveys.cancel")}
              </Link>
              <button type="submit" className="btn btn--primary" disabled={busy}>
                {t("surveys.import.check")}
              </button>
            </div>
          </Form>
        )}
      </div>
    </Modal>
  );
}
