import { useEffect, useId, useState } from "react";
import { useTranslation } from "~/texts";
import { uploadErrorValues } from "~/domain/uploads";
import type { Question } from "~/domain/survey";
import { Field } from "~/components/ui/Field";
import { FilePicker } from "~/components/ui/FilePicker";
import type { LocalFile } from "~/offline/fill-entry";
import { getEntry, removeFile, type EntryContext } from "~/offline/fill-store";
import { keepPickedFiles } from "~/offline/pick-files";

/** Files attached offline: kept on this device with the fill, uploaded by the sync (section 4). */
export function LocalAttachments({ question, context }: { question: Question; context: EntryContext }) {
  const { t } = useTranslation();
  const id = useId();
  const [files, setFiles] = useState<LocalFile[]>([]);
  const [refused, setRefused] = useState<{ name: string; key: string }[]>([]);
  const surveyId = context.survey.Id;
  const { patientId } = context;

  useEffect(() => {
    let live = true;
    void getEntry(surveyId, patientId).then((e) => live && setFiles(e?.upload.files[question.Id] ?? []));
    return () => {
      live = false;
    };
  }, [surveyId, patientId, question.Id]);

  // Each kept file opens from the device: a link to its bytes, let go when the list changes.
  const [links, setLinks] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    const made = new Map(files.map((f) => [f.name, URL.createObjectURL(new Blob([f.bytes], { type: f.type }))]));
    setLinks(made);
    return () => made.forEach((url) => URL.revokeObjectURL(url));
  }, [files]);

  const pick = async (list: FileList) => {
    const { files: kept, refused: problems } = await keepPickedFiles(context, question, files, Array.from(list));
    setFiles(kept);
    setRefused(problems);
  };

  const remove = async (name: string) => {
    const entry = await removeFile(context, question.Id, name);
    setFiles(entry.upload.files[question.Id] ?? []);
  };

  return (
    <div className="attachments" data-testid="attachments">
      <Field id={id} label={t("fill.attachments")}>
        <FilePicker text={t("attachments.choose")}>
          <input
            id={id}
            type="file"
            multiple
            className="file-pick__input"
            onChange={(e) => e.target.files && void pick(e.target.files).then(() => (e.target.value = ""))}
          />
        </FilePicker>
      </Field>
      {files.length > 0 ? (
        <ul className="attachments__list">
          {files.map((f) => (
            <li key={f.name} data-testid="attachment-local">
              {links.has(f.name) ? (
                <a href={links.get(f.name)} download={f.name}>
                  {f.name}
                </a>
              ) : (
                <span>{f.name}</span>
              )}{" "}
              <span className="hint">{t("offline.fileKept")}</span>
              <button
                type="button"
                className="btn btn--small"
                onClick={() => void remove(f.name)}
                aria-label={t("attachments.delete", { name: f.name })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {refused.length > 0 ? (
        <div className="attachments__failed" role="alert">
          <span>{t("attachments.failedCount", { count: refused.length })}</span>
          <ul>
            {refused.map((f) => (
              <li key={f.name} data-testid="attachment-failed">
                {f.name}: {t(`uploadErrors.${f.key}`, uploadErrorValues(f.name))}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
