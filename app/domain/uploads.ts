/**
 * File attachment rules (sections 5 and 9): 17 allowed extensions, at most 4,000,000 bytes per file, at
 * most 5 files per question, no two files of one question with the same name, and a content that fits its
 * extension. Pure and free of zod: the page checks a file's name, size and count before sending it; the server
 * checks them again on arrival, and the content too (contentMatchesExtension reads the file's first bytes).
 */

export const allowedExtensions = [
  "jpg",
  "jpeg",
  "jpe",
  "gif",
  "png",
  "webp",
  "txt",
  "rtf",
  "doc",
  "docx",
  "xls",
  "xlsx",
  "ppt",
  "pptx",
  "pdf",
  "mp4",
  "webm",
] as const;
export type AllowedExtension = (typeof allowedExtensions)[number];

export const MAX_ATTACHMENT_BYTES = 4_000_000;
export const MAX_ATTACHMENTS_PER_QUESTION = 5;
export const FILE_NAME_MAX_LENGTH = 255;

/** The refusals of section 8, as the uploadErrors messages are keyed. */
export const uploadErrorKeys = [
  "SURVEY_ATTACHMENTS_TOO_MANY",
  "SURVEY_ATTACHMENTS_NOT_ALLOWED",
  "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
  "SURVEY_ATTACHMENTS_CONTENT_MISMATCH",
  "SURVEY_ATTACHMENTS_TOO_LARGE",
  "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME",
] as const;
export type UploadErrorKey = (typeof uploadErrorKeys)[number];

const contentTypes: Record<AllowedExtension, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jpe: "image/jpeg",
  gif: "image/gif",
  png: "image/png",
  webp: "image/webp",
  txt: "text/plain; charset=utf-8",
  rtf: "application/rtf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  pdf: "application/pdf",
  mp4: "video/mp4",
  webm: "video/webm",
};

/** What a refusal's message names: the file's kind as its extension says it (PDF, PNG). */
export function uploadErrorValues(fileName: string): { type: string } {
  return { type: fileExtension(fileName).toUpperCase() };
}

/** The extension of a file name, lower case, without the dot; "" when it has none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 || dot === name.length - 1 ? "" : name.slice(dot + 1).toLowerCase();
}

export function isAllowedExtension(extension: string): extension is AllowedExtension {
  return (allowedExtensions as readonly string[]).includes(extension);
}

/** The content type a stored file is served with: decided by its (checked) extension, never by the sender. */
export function contentTypeOf(extension: AllowedExtension): string {
  return contentTypes[extension];
}

/**
 * Marks that change the direction text is shown in. In a file name they disguise it: "evil", U+202E, then
 * "gnp.txt" shows as "eviltxt.png". They are removed from every name kept.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name to keep for an uploaded file: the last path segment, without direction marks, trimmed; null
 * when nothing usable is left (empty, too long, control characters).
 */
export function cleanFileName(name: string): string | null {
  const base = name.replace(BIDI_CONTROLS, "").split(/[/\\]/).pop()!.trim();
  // eslint-disable-next-line no-control-regex
  if (base === "" || base === "." || base === ".." || /[\u0000-\u001f\u007f]/.test(base)) return null;
  return [...base].length > FILE_NAME_MAX_LENGTH ? null : base;
}

/** File names compare without regard to case, as most file systems and archives do. */
export function sameFileName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;
}

/**
 * The name a file is sent under when `taken` (the question's files, and those picked with it) holds its name:
 * "image (2).jpg", "image (3).jpg", …, the first free one; its own name when free. A phone's camera names every
 * photo alike, so the device frees the name before the upload (decision 057); the server still refuses a taken
 * name, so that a request sent again meets its own file and stores it once.
 */
export function freeFileName(name: string, taken: readonly string[]): string {
  const isTaken = (n: string) => taken.some((t) => sameFileName(t, n));
  // Compared as the server keeps it; a name it would refuse anyway is left for it to refuse.
  const kept = cleanFileName(name);
  if (kept === null || !isTaken(kept)) return name;
  name = kept;
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  // "image (2)" taken again counts on from "image", not to "image (2) (2)".
  const base = stem.replace(/ \(\d+\)$/, "");
  for (let n = 2; ; n++) {
    const next = `${base} (${n})${ext}`;
    if (!isTaken(next)) return next;
  }
}

export interface UploadCandidate {
  name: string;
  size: number;
}

/**
 * Why a file may not be attached to a question that already holds files named `existingNames`, or null
 * when it may. `allowsAttachments` false (the question takes none) refuses every file.
 */
export function uploadRefusal(
  candidate: UploadCandidate,
  existingNames: readonly string[],
  opts: { allowsAttachments?: boolean } = {},
): UploadErrorKey | null {
  if (opts.allowsAttachments === false) return "SURVEY_ATTACHMENTS_NOT_ALLOWED";
  const name = cleanFileName(candidate.name);
  if (name === null) return "SURVEY_ATTACHMENTS_NOT_ALLOWED";
  if (!isAllowedExtension(fileExtension(name))) return "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED";
  if (candidate.size > MAX_ATTACHMENT_BYTES) return "SURVEY_ATTACHMENTS_TOO_LARGE";
  if (existingNames.some((n) => sameFileName(n, name))) return "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME";
  if (existingNames.length >= MAX_ATTACHMENTS_PER_QUESTION) return "SURVEY_ATTACHMENTS_TOO_MANY";
  return null;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

function hasAt(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function indexOf(bytes: Uint8Array, pattern: readonly number[], limit = bytes.length): number {
  const end = Math.min(limit, bytes.length) - pattern.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EBML = [0x1a, 0x45, 0xdf, 0xa3];

/** Office Open XML files are zip archives whose part names start with this folder. */
const officeFolder: Partial<Record<AllowedExtension, string>> = { docx: "word/", xlsx: "xl/", pptx: "ppt/" };

/**
 * Whether a file's bytes fit its extension: the magic bytes of the binary formats, and no NUL byte in the
 * text formats (txt, rtf).
 */
export function contentMatchesExtension(extension: AllowedExtension, bytes: Uint8Array): boolean {
  switch (extension) {
    case "jpg":
    case "jpeg":
    case "jpe":
      return hasAt(bytes, JPEG);
    case "gif":
      return hasAt(bytes, ascii("GIF87a")) || hasAt(bytes, ascii("GIF89a"));
    case "png":
      return hasAt(bytes, PNG);
    case "webp":
      return hasAt(bytes, ascii("RIFF")) && hasAt(bytes, ascii("WEBP"), 8);
    case "pdf":
      // Readers accept the header anywhere in the first 1024 bytes.
      return indexOf(bytes, ascii("%PDF-"), 1024) >= 0;
    case "docx":
    case "xlsx":
    case "pptx":
      return hasAt(bytes, ZIP) && indexOf(bytes, ascii(officeFolder[extension]!)) >= 0;
    case "doc":
    case "xls":
    case "ppt":
      return hasAt(bytes, OLE);
    case "mp4":
      return hasAt(bytes, ascii("ftyp"), 4);
    case "webm":
      return hasAt(bytes, EBML);
    case "txt":
    case "rtf":
      return !bytes.includes(0);
  }
}
