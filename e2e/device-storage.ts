import type { Page } from "@playwright/test";

/**
 * What a page's storage holds, read from inside the page as a curious person with the browser's tools could
 * (decision 048): the device's holder keys are used only where a test reads what the holder kept.
 */

/** The holder's kept fill of a case, opened with the holder's keys on the device, or null. */
export function keptFill(page: Page, surveyId: number, patientId: string) {
  return page.evaluate(
    async ([id, patient]) => {
      const request = <T>(r: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
      const openDb = (name: string) => request(indexedDB.open(name));
      const read = async (name: string, store: string, key: IDBValidKey) => {
        const db = await openDb(name);
        try {
          if (!db.objectStoreNames.contains(store)) return undefined;
          return (await request(db.transaction(store).objectStore(store).get(key))) as unknown;
        } finally {
          db.close();
        }
      };
      const holder = (await read("offline-device", "holder", "current")) as
        { tag: string; data: CryptoKey; names: CryptoKey } | undefined;
      if (!holder) return null;
      const mac = await crypto.subtle.sign(
        "HMAC",
        holder.names,
        new TextEncoder().encode(JSON.stringify(["fill", id, patient])),
      );
      const name = btoa(String.fromCharCode(...new Uint8Array(mac.slice(0, 18))))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
      const sealed = (await read(`offline-p${holder.tag}-fills-${id}`, "kept", name)) as
        { iv: Uint8Array; data: ArrayBuffer } | undefined;
      if (!sealed) return null;
      const plain = new Uint8Array(
        await crypto.subtle.decrypt({ name: "AES-GCM", iv: sealed.iv as BufferSource }, holder.data, sealed.data),
      );
      const length = new DataView(plain.buffer).getUint32(0);
      return JSON.parse(new TextDecoder().decode(plain.subarray(4, 4 + length))) as {
        patientId: string;
        answers: Record<string, { TextResponse?: string; NumericalResponse?: number; AnswerOptionIds?: number[] }>;
        upload: { userId: string };
      };
    },
    [surveyId, patientId] as const,
  );
}

/**
 * Everything the page's storage holds, as text: every IndexedDB database with its keys and values (binary
 * parts as Latin-1), local and session storage, and every cached response's body.
 */
export function storageText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const asText = (value: unknown): string =>
      JSON.stringify(value, (_k, v: unknown) => {
        if (v instanceof ArrayBuffer) return String.fromCharCode(...new Uint8Array(v));
        if (ArrayBuffer.isView(v)) return String.fromCharCode(...new Uint8Array(v.buffer));
        return v;
      });
    const parts: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      for (const store of Array.from(db.objectStoreNames)) {
        const s = db.transaction(store).objectStore(store);
        const [keys, values] = await Promise.all([request(s.getAllKeys()), request(s.getAll())]);
        parts.push(`${name}/${store}: ${asText(keys)} ${asText(values)}`);
      }
      db.close();
    }
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) parts.push(`${storage.key(i)}=${storage.getItem(storage.key(i)!)}`);
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const key of await cache.keys()) parts.push(`${name} ${key.url}: ${await (await cache.match(key))!.text()}`);
    }
    return parts.join("\n");
  });
}

/** Whether a person's kept pages hold this page (only the holder's are ever kept, decision 048). */
export function hasKeptPage(page: Page, key: string) {
  return page.evaluate(async (path) => {
    for (const name of await caches.keys()) {
      if (name.startsWith("offline-pages-v2-") && (await (await caches.open(name)).match(path))) return true;
    }
    return false;
  }, key);
}
