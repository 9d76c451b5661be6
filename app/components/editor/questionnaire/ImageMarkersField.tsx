import { Field } from "~/components/ui/Field";
import { FilePicker } from "~/components/ui/FilePicker";
import { useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from "react";
import { useTranslation } from "~/texts";
import { MarkerList } from "./MarkerList";
import {
  addMarker,
  clampMarker,
  formatFraction,
  moveByKey,
  positionFromPointer,
  type ImageBox,
  type MarkerDraft,
  type MarkersUpdate,
} from "./markers";
import { IMAGE_TYPES, imageFileIssue, imageSrcIssue, MAX_IMAGE_BYTES, type ImageIssue } from "./question-form";

const issueKeys = {
  type: "questionModal.imageTypeError",
  size: "questionModal.imageSizeError",
  read: "questionModal.imageReadError",
} as const;

/**
 * The image of an image question and its answer markers (sections 5 and 9): upload, then place markers by
 * clicking the image (the selected marker goes there, or else a new one is made there), by dragging them or
 * with the arrow keys, and title each one in the list beside the image.
 */
export function ImageMarkersField({
  id,
  imageSrc,
  markers,
  errors,
  onImage,
  onMarkers,
}: {
  id: string;
  imageSrc: string | null;
  markers: MarkerDraft[];
  errors: { image: boolean; markers: boolean; blankMarkers: number[] } | null;
  onImage: (src: string) => void;
  onMarkers: MarkersUpdate;
}) {
  const { t, i18n } = useTranslation();
  const imgRef = useRef<HTMLImageElement>(null);
  /** The marker being dragged, and where on it the pointer took hold (so that it does not jump). */
  const dragging = useRef<{ key: number; dx: number; dy: number } | null>(null);
  /** The marker a click on the image moves; null: a click makes a new marker. */
  const [selected, setSelected] = useState<number | null>(null);
  const clampOnLoad = useRef(false);
  const [fileIssue, setFileIssue] = useState<ImageIssue | "read" | null>(null);
  const [announcement, setAnnouncement] = useState("");

  const box = (): ImageBox => {
    const rect = imgRef.current?.getBoundingClientRect();
    return { width: rect?.width ?? 0, height: rect?.height ?? 0 };
  };
  const place = (key: number, position: { x: number; y: number }) =>
    onMarkers((list) => list.map((m) => (m.key === key ? { ...m, ...position } : m)));

  const readFile = (file: File | undefined) => {
    if (!file) return;
    const issue = imageFileIssue(file);
    setFileIssue(issue);
    if (issue) return;
    const reader = new FileReader();
    reader.onload = () => {
      const src = typeof reader.result === "string" ? reader.result : "";
      const refused = imageSrcIssue(src);
      setFileIssue(refused);
      if (refused) return;
      clampOnLoad.current = true;
      onImage(src);
    };
    reader.onerror = () => setFileIssue("read");
    reader.readAsDataURL(file);
  };

  const onLoad = () => {
    // A new image may be smaller: keep every marker inside it.
    if (!clampOnLoad.current) return;
    clampOnLoad.current = false;
    const size = box();
    onMarkers((list) => list.map((m) => ({ ...m, ...clampMarker(m, size) })));
  };

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>, key: number) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture(e.pointerId);
    // The marker under the pointer is the one taken, held where it was grabbed.
    const handle = e.currentTarget.getBoundingClientRect();
    dragging.current = {
      key,
      dx: e.clientX - (handle.left + handle.width / 2),
      dy: e.clientY - (handle.top + handle.height / 2),
    };
    setSelected(key);
  };
  const onPointerMove = (e: PointerEvent<HTMLButtonElement>, key: number) => {
    const drag = dragging.current;
    if (drag?.key !== key || !imgRef.current) return;
    place(key, positionFromPointer(e.clientX - drag.dx, e.clientY - drag.dy, imgRef.current.getBoundingClientRect()));
  };
  const endDrag = (e: PointerEvent<HTMLButtonElement>) => {
    dragging.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };
  /** A click on the picture itself: the selected marker goes there, or a new one is made there. */
  const onImageClick = (e: MouseEvent<HTMLImageElement>) => {
    if (!imgRef.current) return;
    const at = positionFromPointer(e.clientX, e.clientY, imgRef.current.getBoundingClientRect());
    if (selected !== null && markers.some((m) => m.key === selected)) {
      place(selected, at);
      setSelected(null);
      return;
    }
    const next = addMarker(markers, box(), at);
    onMarkers(() => next.list);
    // Its title next: the field waits beside the image.
    requestAnimationFrame(() => document.getElementById(`${id}-marker-${next.key}`)?.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, marker: MarkerDraft, n: number) => {
    if (e.key === "Escape" && selected !== null) {
      e.preventDefault();
      e.stopPropagation();
      setSelected(null);
      return;
    }
    const next = moveByKey(marker, e.key, e.shiftKey, box());
    if (!next) return;
    e.preventDefault();
    place(marker.key, next);
    setAnnouncement(t("questionModal.markerMoved", { n, x: formatFraction(next.x), y: formatFraction(next.y) }));
  };

  const maxMb = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(MAX_IMAGE_BYTES / 1e6);
  const imageError = fileIssue
    ? t(issueKeys[fileIssue], { max: maxMb })
    : errors?.image
      ? t("questionModal.imageRequired")
      : null;
  const title = (m: MarkerDraft, n: number) => m.text.trim() || t("questionModal.untitled", { n });

  return (
    <div className="qmodal__image-grid">
      <div className="qmodal__image-col">
        <Field
          id={`${id}-file`}
          label={t(imageSrc ? "questionModal.imageReplace" : "questionModal.image")}
          hint={t("questionModal.imageHint", { max: maxMb })}
          error={imageError ? <span data-testid="image-error">{imageError}</span> : null}
        >
          {(control) => (
            <FilePicker text={t("questionModal.imageChoose")}>
              <input
                {...control}
                type="file"
                className="file-pick__input"
                accept={IMAGE_TYPES.join(",")}
                onChange={(e) => {
                  readFile(e.target.files?.[0]);
                  e.target.value = "";
                }}
              />
            </FilePicker>
          )}
        </Field>
        {imageSrc ? (
          <div className="marker-stage">
            <img
              ref={imgRef}
              src={imageSrc}
              alt={t("questionModal.imageAlt")}
              className="marker-stage__img"
              draggable={false}
              onLoad={onLoad}
              onClick={onImageClick}
              data-testid="marker-image"
            />
            {markers.map((m, i) => (
              <button
                key={m.key}
                type="button"
                className={`marker-handle${selected === m.key ? " marker-handle--selected" : ""}`}
                style={{ left: `${m.x * 100}%`, top: `${m.y * 100}%` }}
                aria-pressed={selected === m.key}
                onClick={() => setSelected((current) => (current === m.key ? current : m.key))}
                aria-label={t("questionModal.markerHandle", {
                  n: i + 1,
                  title: title(m, i + 1),
                  x: formatFraction(m.x),
                  y: formatFraction(m.y),
                })}
                aria-describedby={`${id}-move-hint`}
                data-testid="marker-handle"
                onPointerDown={(e) => onPointerDown(e, m.key)}
                onPointerMove={(e) => onPointerMove(e, m.key)}
                onPointerUp={endDrag}
                onPointerCancel={endDrag}
                onKeyDown={(e) => onKeyDown(e, m, i + 1)}
              >
                <span aria-hidden="true">{i + 1}</span>
              </button>
            ))}
          </div>
        ) : null}
        <p id={`${id}-move-hint`} className="hint">
          {t("questionModal.moveHint")}
        </p>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
      </div>
      <MarkerList
        id={id}
        markers={markers}
        errors={errors}
        box={box}
        onMarkers={onMarkers}
        onAdded={(key) => setSelected(key)}
      />
    </div>
  );
}
