import { freeFileName, uploadRefusal, type UploadErrorKey } from "~/domain/uploads";
import type { Question } from "~/domain/survey";
import type { LocalFile } from "./fill-entry";
import { addFile, type EntryContext } from "./fill-store";

/** A file as picked: its name, size and kind, and its bytes when kept. */
export interface PickedFile {
  name: string;
  size: number;
  type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * Files picked while offline, kept with the fill on this device (section 4) under the rules the server applies:
 * a name the question holds, or one picked with it, is freed first ("image (2).jpg"), as the page does online
 * (decision 057), so a camera's photos are all kept, and synced under the names shown. Returns the question's
 * kept files and those refused, with their reasons.
 */
export async function keepPickedFiles(
  context: EntryContext,
  question: Pick<Question, "Id" | "AllowFileAttachments">,
  kept: LocalFile[],
  picked: PickedFile[],
): Promise<{ files: LocalFile[]; refused: { name: string; key: UploadErrorKey }[] }> {
  const names = kept.map((f) => f.name);
  const refused: { name: string; key: UploadErrorKey }[] = [];
  let files = kept;
  for (const file of picked) {
    const name = freeFileName(file.name, names);
    const key = uploadRefusal({ name, size: file.size }, names, { allowsAttachments: question.AllowFileAttachments });
    if (key) {
      refused.push({ name, key });
      continue;
    }
    const entry = await addFile(context, question.Id, { name, type: file.type, bytes: await file.arrayBuffer() });
    names.push(name);
    files = entry.upload.files[question.Id] ?? [];
  }
  return { files, refused };
}
