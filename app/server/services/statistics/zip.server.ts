import zlib from "node:zlib";
import { Zip, ZipPassThrough, type AsyncFlateStreamHandler, type ZipInputFile } from "fflate";
import { crc32Combine, DEFLATE_END, deflateBlock, type DeflatedBlock } from "./deflate-blocks.server";

export type ZipPart =
  | {
      name: string;
      /** The entry's bytes, produced piece by piece. */
      chunks: AsyncIterable<Uint8Array>;
      /** Already compressed content (images, office files) is stored, not compressed again. */
      store?: boolean;
    }
  | {
      name: string;
      /** The entry in deflate blocks (deflate-blocks.server.ts); a plain piece is deflated as a block of its own. */
      blocks: AsyncIterable<Uint8Array | DeflatedBlock>;
    };

/** An entry of the archive being written: its bytes go in piece by piece, each piece taken before the next. */
interface Entry {
  file: ZipInputFile;
  write: (piece: Uint8Array) => Promise<void>;
  end: () => Promise<void>;
  /** Lets go of what the entry holds when the reader goes away before it ended. */
  abandon: () => void;
  /** Takes a block deflated before (an entry of deflate blocks only). */
  block?: (block: DeflatedBlock) => void;
}

/** An entry stored as it is (fflate computes its checksum). */
function storedEntry(name: string): Entry {
  const file = new ZipPassThrough(name);
  return {
    file,
    write: async (piece) => file.push(piece),
    end: async () => file.push(new Uint8Array(0), true),
    abandon: () => {},
  };
}

/**
 * An entry deflated by Node's zlib: compiled code on the thread pool, so the compression of a large export
 * runs beside the JavaScript that reads the database and writes the CSV (fflate's deflate, in JavaScript on
 * the main thread, took about a seventh of an export's time). The archive takes the sizes and the
 * checksum from the entry's data descriptor, written when the entry ends.
 */
function deflatedEntry(name: string): Entry {
  const deflate = zlib.createDeflateRaw({ level: 6 });
  const file: ZipInputFile & { ondata?: AsyncFlateStreamHandler } = {
    filename: name,
    size: 0,
    crc: 0,
    compression: 8,
  };
  const failed = new Promise<never>((_, reject) => deflate.once("error", reject));
  failed.catch(() => {});
  deflate.on("data", (chunk: Buffer) => file.ondata?.(null, new Uint8Array(chunk), false));
  return {
    file,
    write: (piece) => {
      file.crc = zlib.crc32(piece, file.crc);
      file.size += piece.length;
      // Resolved when zlib has taken the piece: the reader's pace holds back the database's.
      return Promise.race([failed, new Promise<void>((resolve) => deflate.write(piece, () => resolve()))]);
    },
    end: () =>
      Promise.race([
        failed,
        new Promise<void>((resolve) => {
          deflate.once("end", () => {
            file.ondata?.(null, new Uint8Array(0), true);
            resolve();
          });
          deflate.end();
        }),
      ]),
    abandon: () => deflate.destroy(),
  };
}

/**
 * An entry of deflate blocks, copied as they are, one after the other; its CRC-32 is combined from theirs.
 * Nothing is compressed here but the plain pieces, each on its own.
 */
function blocksEntry(name: string): Entry {
  const file: ZipInputFile & { ondata?: AsyncFlateStreamHandler } = {
    filename: name,
    size: 0,
    crc: 0,
    compression: 8,
  };
  const block = (b: DeflatedBlock) => {
    file.crc = crc32Combine(file.crc, b.crc, b.size);
    file.size += b.size;
    const bytes = new Uint8Array(b.bytes.buffer as ArrayBuffer, b.bytes.byteOffset, b.bytes.byteLength);
    if (bytes.length > 0) file.ondata?.(null, bytes, false);
  };
  return {
    file,
    block,
    write: async (piece) => block(await deflateBlock(piece)),
    end: async () => file.ondata?.(null, DEFLATE_END, true),
    abandon: () => {},
  };
}

/**
 * A zip archive as a stream: each entry's pieces are compressed as the reader asks for more, so an export
 * of any size needs only a few pieces in memory at a time.
 */
export function zipStream(parts: AsyncIterable<ZipPart>): ReadableStream<Uint8Array> {
  let emit: ((chunk: Uint8Array) => void) | undefined;
  let fail: ((error: unknown) => void) | undefined;
  let done = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) fail?.(error);
    else {
      emit?.(chunk);
      if (final) done = true;
    }
  });
  const entries = parts[Symbol.asyncIterator]();
  let current: { entry: Entry; chunks: AsyncIterator<Uint8Array | DeflatedBlock> } | null = null;
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
          const part = next.value;
          const entry =
            "blocks" in part ? blocksEntry(part.name) : part.store ? storedEntry(part.name) : deflatedEntry(part.name);
          zip.add(entry.file);
          const pieces = "blocks" in part ? part.blocks : part.chunks;
          current = { entry, chunks: pieces[Symbol.asyncIterator]() };
        }
        const piece = await current.chunks.next();
        if (piece.done) {
          await current.entry.end();
          current = null;
        } else if (piece.value instanceof Uint8Array) {
          await current.entry.write(piece.value);
        } else {
          current.entry.block!(piece.value);
        }
      }
      if (done) controller.close();
    },
    async cancel() {
      current?.entry.abandon();
      await current?.chunks.return?.();
      await entries.return?.();
    },
  });
}

/** One entry of bytes already in memory. */
export async function* once(data: Uint8Array): AsyncIterable<Uint8Array> {
  yield data;
}
