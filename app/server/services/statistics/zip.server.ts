import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

export interface ZipPart {
  name: string;
  /** The entry's bytes, produced piece by piece. */
  chunks: AsyncIterable<Uint8Array>;
  /** Already compressed content (images, office files) is stored, not compressed again. */
  store?: boolean;
}

/**
 * A zip archive as a stream: each entry's pieces are compressed as the reader asks for more, so an export
 * of any size needs only a few pieces in memory at a time.
 */
export function zipStream(parts: AsyncIterable<ZipPart>): ReadableStream<Uint8Array> {
  let emit: ((chunk: Uint8Array) => void) | undefined;
  let fail: ((error: unknown) => void) | undefined;
  const zip = new Zip((error, chunk, final) => {
    if (error) fail?.(error);
    else {
      emit?.(chunk);
      if (final) done = true;
    }
  });
  let done = false;
  const entries = parts[Symbol.asyncIterator]();
  let current: { file: ZipDeflate | ZipPassThrough; chunks: AsyncIterator<Uint8Array> } | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      emit = (chunk) => controller.enqueue(chunk);
      fail = (error) => controller.error(error);
      // Feed the archive until it has produced something for the reader (or is finished).
      const before = controller.desiredSize;
      while (!done && controller.desiredSize === before) {
        if (!current) {
          const next = await entries.next();
          if (next.done) {
            zip.end();
            break;
          }
          const file = next.value.store
            ? new ZipPassThrough(next.value.name)
            : new ZipDeflate(next.value.name, { level: 6 });
          zip.add(file);
          current = { file, chunks: next.value.chunks[Symbol.asyncIterator]() };
        }
        const piece = await current.chunks.next();
        if (piece.done) {
          current.file.push(new Uint8Array(0), true);
          current = null;
        } else {
          current.file.push(piece.value);
        }
      }
      if (done) controller.close();
    },
    async cancel() {
      await current?.chunks.return?.();
      await entries.return?.();
    },
  });
}

/** One entry of bytes already in memory. */
export async function* once(data: Uint8Array): AsyncIterable<Uint8Array> {
  yield data;
}
