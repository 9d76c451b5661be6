import { useTranslation } from "~/texts";
import type { PatientDataShown as Shown } from "~/domain/patient-data";
import { ActorName } from "./ActorName";

/** A two-column table of titles and values, captioned. */
function ValueTable({ caption, rows, testId }: { caption: string; rows: Shown["answers"]; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="audit__table">
      <table data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("dataProtection.col.question")}</th>
            <th scope="col">{t("dataProtection.col.answer")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={`${row.title}:${i}`}>
              <th scope="row">{row.title}</th>
              <td>{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What is stored about a patient id (docs/decisions/042-retention-and-erasure.md), as the page and its print
 * show it: the case, the answers in the survey's order, the files, the signatures and the history of changes.
 */
export function PatientDataView({ data, timeZone }: { data: Shown; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <div className="patient-data__content">
      <p className="audit__note">{t("audit.timeZoneNote", { zone: timeZone })}</p>
      <dl className="patient-data__case">
        <dt>{t("dataProtection.state")}</dt>
        <dd>{t(data.state === "Closed" ? "dataProtection.closed" : "dataProtection.open")}</dd>
        <dt>{t("dataProtection.created")}</dt>
        <dd>
          <time dateTime={data.createdIso}>{data.created}</time>
        </dd>
        {data.closed ? (
          <>
            <dt>{t("dataProtection.closedAt")}</dt>
            <dd>
              <time dateTime={data.closedIso ?? undefined}>{data.closed}</time>
            </dd>
          </>
        ) : null}
      </dl>
      {data.preliminary.length > 0 ? (
        <ValueTable caption={t("audit.history.preliminary")} rows={data.preliminary} testId="data-preliminary" />
      ) : null}
      {data.answers.length > 0 ? (
        <ValueTable caption={t("audit.history.questions")} rows={data.answers} testId="data-answers" />
      ) : (
        <p className="notice">{t("audit.history.empty")}</p>
      )}
      {data.attachments.length > 0 ? (
        <div className="audit__table">
          <table data-testid="data-files">
            <caption>{t("dataProtection.files")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("dataProtection.col.question")}</th>
                <th scope="col">{t("dataProtection.col.file")}</th>
                <th scope="col">{t("dataProtection.col.size")}</th>
              </tr>
            </thead>
            <tbody>
              {data.attachments.map((f) => (
                <tr key={`${f.Question}:${f.FileName}`}>
                  <td>{f.Question}</td>
                  <td>{f.FileName}</td>
                  <td>{t("dataProtection.bytes", { count: f.Size })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h2>{t("audit.history.signatures")}</h2>
      {data.signatures.length > 0 ? (
        <div className="audit__table">
          <table data-testid="data-signatures">
            <caption>{t("audit.history.signaturesCaption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("audit.col.at")}</th>
                <th scope="col">{t("audit.col.signer")}</th>
                <th scope="col">{t("audit.col.meaning")}</th>
              </tr>
            </thead>
            <tbody>
              {data.signatures.map((s) => (
                <tr key={s.id}>
                  <td>
                    <time dateTime={s.atIso}>{s.at}</time>
                  </td>
                  <td>{s.name}</td>
                  <td>{t(`audit.meaning.${s.meaning}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t("audit.history.noSignature")}</p>
      )}
      <h2>{t("dataProtection.history")}</h2>
      {data.history.map((q) => (
        <div className="audit__table" key={q.id}>
          <table>
            <caption>{q.title}</caption>
            <thead>
              <tr>
                <th scope="col">{t("audit.col.at")}</th>
                <th scope="col">{t("audit.col.value")}</th>
                <th scope="col">{t("audit.col.person")}</th>
              </tr>
            </thead>
            <tbody>
              {q.entries.map((e) => (
                <tr key={e.key}>
                  <td>
                    <time dateTime={e.atIso}>{e.at}</time>
                  </td>
                  <td>{e.value ?? <em>{t("audit.history.noValue")}</em>}</td>
                  <td>
                    <ActorName actor={e.actor} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
