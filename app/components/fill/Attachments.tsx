import { attachmentsApi } from "~/contracts/attachments";
import { allowedExtensions, freeFileName, uploadErrorValues, uploadRefusal } from "~/domain/uploads";
import { callApi, type ApiResult } from "~/api-client";
import { useToast } from "~/components/ui/Toaster";
import { newIdempotencyKey } from "~/domain/idempotency";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import type { Question } from "~/domain/survey";
import { Field } from "~/components/ui/Field";
import { FilePicker } from "~/components/ui/FilePicker";
import { useRefusal } from "~/components/ui/useRefusal";
import { useHydrated } from "~/components/ui/useHydrated";
import type { FileProblem } from "~/domain/page-problems";

const acceptedFiles = allowedExtensions.map((e) => `.${e}`).join(",");

interface Stored {
  Id: number;
  FileName: string;
}

interface Failed {
  name: string;
  /** A key of the uploadErrors group, or a plain message from the server. */
  reason: string;
}

const errorKeys = [
  "SURVEY_ATTACHMENTS_TOO_MANY",
  "SURVEY_ATTACHMENTS_NOT_ALLOWED",
  "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
  "SURVEY_ATTACHMENTS_CONTENT_MISMATCH",
  "SURVEY_ATTACHMENTS_TOO_LARGE",
  "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME",
];

/** Statuses that mean a patient's link no longer stands for its case (revoked, expired, submitted meanwhile). */
const LINK_GONE = [401, 403, 404, 409];

/**
 * A refusal as a patient's page says it (decision 057), in the case's language: never a staff page about
 * signing in or rights, which a link's caller has neither of.
 */
export function linkRefusalKey(result: Extract<ApiResult<unknown>, { ok: false }>): string {
  if (result.type === "NETWORK") return "errors.network";
  return LINK_GONE.includes(result.status) ? "attachments.linkInvalid" : "attachments.refused";
}

/**
 * Files attached to one question's answer: upload, list, delete; refused files with their reason (section 8).
 * Without JavaScript the file field posts with the page's form, whose action uploads it (decision 007).
 */
export function Attachments({
  question,
  surveyId,
  patientDataId,
  userId,
  surveyUserDataId,
  count,
  initial,
  refused,
  link = false,
}: {
  question: Question;
  surveyId: number;
  patientDataId: number;
  userId: string;
  surveyUserDataId: number;
  /** How many files the question has on the server, as the page was drawn; null: not known, asked for. */
  count: number | null;
  /** The files listed as the page was drawn. */
  initial?: Stored[];
  /** Without JavaScript: the files the page's form action could not upload. */
  refused?: FileProblem[];
  /** A patient's link (decision 057): its API under /l, files listed without a staff download. */
  link?: boolean;
}) {
  const { t } = useTranslation();
  // Without JavaScript the file field carries a name for the page's form.
  const named = !useHydrated();
  const staffRefuse = useRefusal();
  const toast = useToast();
  // A patient's link: its refusals in the patient's words, in place or in a toast; staff's as every page says them.
  const refuse = useCallback(
    (result: Extract<ApiResult<unknown>, { ok: false }>, options?: { toast?: boolean }) => {
      if (!link) return staffRefuse(result, options);
      const words = t(linkRefusalKey(result));
      if (options?.toast !== false) toast("error", words);
      return words;
    },
    [link, staffRefuse, t, toast],
  );
  const id = useId();
  const [files, setFiles] = useState<Stored[] | null>(initial ?? (count === 0 ? [] : null));
  const [failed, setFailed] = useState<Failed[]>(() =>
    (refused ?? []).map((f) => ({ name: f.name, reason: t(f.reason, uploadErrorValues(f.name)) })),
  );
  const [busy, setBusy] = useState(false);
  const questionId = question.Id;
  const owner = link ? {} : { ssiUserDataId: surveyUserDataId, userId };
  const base = link ? "/l" : undefined;

  const reload = useCallback(async () => {
    const result = await callApi(attachmentsApi.list, { query: { questionId, patientDataId } }, { base });
    if (result.ok) setFiles(result.data);
    else refuse(result);
  }, [questionId, patientDataId, refuse, base]);
  // Listed as the page was drawn; otherwise asked for once the page runs.
  const listed = initial !== undefined;
  useEffect(() => {
    if (listed) return;
    if (count === 0) setFiles([]);
    else void reload();
  }, [count, listed, reload]);

  const upload = async (list: FileList) => {
    setBusy(true);
    const refused: Failed[] = [];
    // The names the question holds: a taken one is freed here ("image (2).jpg"), so a second photo is kept.
    const taken = (files ?? []).map((f) => f.FileName);
    for (const file of Array.from(list)) {
      const name = freeFileName(file.name, taken);
      // Checked here first, as the server checks again: a file it would refuse is not sent over a phone's line.
      const early = uploadRefusal({ name, size: file.size }, taken, {
        allowsAttachments: question.AllowFileAttachments,
      });
      if (early) {
        refused.push({ name, reason: t(`uploadErrors.${early}`, uploadErrorValues(name)) });
        continue;
      }
      const body = new FormData();
      body.append("files", file, name);
      const result = await callApi(
        attachmentsApi.upload,
        { query: { questionId, patientDataId, surveyId, ...owner } },
        // A request the browser sends again by itself (its connection closed early) stores the file once.
        { form: body, idempotencyKey: newIdempotencyKey(), base },
      );
      if (!result.ok) {
        const key = [result.type, result.message].find((k) => k && errorKeys.includes(k));
        // The upload's own words for what it refuses; the rest as every page says it, beside the file.
        const reason = key ? t(`uploadErrors.${key}`, uploadErrorValues(name)) : refuse(result, { toast: false });
        if (reason === null) return; // signed out or without the right: its page is opening
        refused.push({ name, reason });
      } else taken.push(name);
    }
    setFailed(refused);
    setBusy(false);
    await reload();
  };

  // Files picked before the page came alive (the input is there from the server's first render) are
  // uploaded once it does, instead of being dropped.
  const input = useRef<HTMLInputElement>(null);
  const uploadRef = useRef(upload);
  uploadRef.current = upload;
  useEffect(() => {
    const picked = input.current;
    if (picked?.files?.length) void uploadRef.current(picked.files).then(() => (picked.value = ""));
  }, []);

  const remove = async (fileName: string) => {
    const result = await callApi(
      attachmentsApi.remove,
      {
        query: { questionId, patientDataId, ...owner },
        body: { fileName },
      },
      { base },
    );
    if (result.ok) await reload();
    else refuse(result);
  };

  return (
    <div className="attachments" data-testid="attachments">
      <Field id={id} label={t("fill.attachments")}>
        <FilePicker text={t(busy ? "attachments.uploading" : "attachments.choose")}>
          <input
            ref={input}
            id={id}
            name={named ? `f${question.Id}` : undefined}
            type="file"
            multiple
            // On a phone the chooser offers the camera beside the files: only the kinds the API takes.
            accept={acceptedFiles}
            disabled={busy}
            className="file-pick__input"
            onChange={(e) => e.target.files && void upload(e.target.files).then(() => (e.target.value = ""))}
          />
        </FilePicker>
      </Field>
      {link ? (
        <CameraPicker
          text={t(busy ? "attachments.uploading" : "attachments.camera")}
          disabled={busy}
          onPick={(list) => void upload(list)}
        />
      ) : null}
      {named
        ? // Without JavaScript the form names the files listed, so that its action frees a taken name as above.
          (files ?? []).map((f) => <input key={f.Id} type="hidden" name={`taken${question.Id}`} value={f.FileName} />)
        : null}
      {files && files.length > 0 ? (
        <ul className="attachments__list">
          {files.map((f) => (
            <li key={f.Id}>
              {link ? <span>{f.FileName}</span> : <a href={`/survey/${surveyId}/files/${f.Id}`}>{f.FileName}</a>}
              <button
                type="button"
                className="btn btn--small"
                onClick={() => void remove(f.FileName)}
                aria-label={t("attachments.delete", { name: f.FileName })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {failed.length > 0 ? (
        <div className="attachments__failed" role="alert">
          <span>{t("attachments.failedCount", { count: failed.length })}</span>
          <ul>
            {failed.map((f, i) => (
              <li key={`${i}:${f.name}`} title={f.reason} data-testid="attachment-failed">
                {f.name}: {f.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** A photo taken with the phone's camera (rear camera first), uploaded as a file is: a patient's page only. */
function CameraPicker({
  text,
  disabled,
  onPick,
}: {
  text: string;
  disabled: boolean;
  onPick: (files: FileList) => void;
}) {
  const id = useId();
  return (
    <FilePicker text={text}>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png"
        capture="environment"
        disabled={disabled}
        className="file-pick__input"
        aria-label={text}
        data-testid="attachment-camera"
        onChange={(e) => {
          if (e.target.files?.length) onPick(e.target.files);
          e.target.value = "";
        }}
      />
    </FilePicker>
  );
}
