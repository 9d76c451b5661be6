import type { FillEntry } from "./fill-entry";
import { listEntries } from "./fill-sync-store";

function base64(bytes: ArrayBuffer): string {
  let text = "";
  const view = new Uint8Array(bytes);
  for (let i = 0; i < view.length; i += 0x8000) text += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(text);
}

/** Every fill kept on this device as one JSON document, files included (base64). */
export function exportDocument(entries: FillEntry[], now = new Date()) {
  return {
    exportedAt: now.toISOString(),
    entries: entries.map((e) => ({
      ...e,
      upload: {
        ...e.upload,
        files: Object.fromEntries(
          Object.entries(e.upload.files).map(([q, files]) => [
            q,
            files.map((f) => ({ name: f.name, type: f.type, error: f.error, base64: base64(f.bytes) })),
          ]),
        ),
      },
    })),
  };
}

/** Saves every unsynced fill to a file the user keeps (section 4: nothing is lost). */
export async function exportToFile(): Promise<number> {
  const entries = await listEntries();
  const blob = new Blob([JSON.stringify(exportDocument(entries), null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `offline-fills-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return entries.length;
}
