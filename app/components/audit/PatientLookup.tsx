import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/texts";
import { Field } from "~/components/ui/Field";

/**
 * The search for one case by its patient id on the audit screens (a case's history, the patient data page):
 * a GET form, so the address names the case and the page works without JavaScript.
 */
export function PatientLookup({ patientId, label, submit }: { patientId: string; label: string; submit: string }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Form method="get" className="audit__lookup no-print" role="search" aria-label={label}>
      <Field id={id} label={t("audit.history.patientId")}>
        {(control) => (
          <input
            {...control}
            className="input"
            name="patientId"
            defaultValue={patientId}
            required
            maxLength={200}
            autoComplete="off"
          />
        )}
      </Field>
      <button type="submit" className="btn btn--primary">
        {submit}
      </button>
    </Form>
  );
}
