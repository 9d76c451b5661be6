import crypto from "node:crypto";
import zlib from "node:zlib";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { zipStream, type ZipPart } from "~/server/services/statistics/zip.server";

/** The central directory of a zip: each entry's name, method, checksum and sizes as recorded. */
function centralDirectory(zip: Buffer) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      name: zip.toString("utf8", at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

async function* pieces(data: Uint8Array, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function collect(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

describe("the streamed zip", () => {
  it("holds deflated and stored entries whose checksums and sizes match their bytes", async () => {
    const csv = new TextEncoder().encode("PatientId;Q1\n".concat("P1;ja\nP2;nein\n".repeat(200_000)));
    const image = crypto.randomBytes(300_000);
    const parts: ZipPart[] = [
      { name: "responses.csv", chunks: pieces(csv, 64 * 1024) },
      { name: "röntgen.png", chunks: pieces(image, 10_000), store: true },
      { name: "empty.csv", chunks: pieces(new Uint8Array(0), 1) },
    ];
    const zip = await collect(
      zipStream(
        (async function* () {
          yield* parts;
        })(),
      ),
    );
    const files = unzipSync(zip);
    expect(Buffer.from(files["responses.csv"]).equals(Buffer.from(csv))).toBe(true);
    expect(Buffer.from(files["röntgen.png"]).equals(image)).toBe(true);
    expect(files["empty.csv"]).toHaveLength(0);
    const entries = centralDirectory(zip);
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ["responses.csv", 8],
      ["röntgen.png", 0],
      ["empty.csv", 8],
    ]);
    for (const e of entries) {
      expect(e.crc, e.name).toBe(zlib.crc32(files[e.name]) >>> 0);
      expect(e.size, e.name).toBe(files[e.name].length);
    }
    // The text is compressed; the random image is stored as it is.
    expect(entries[0].compressed).toBeLessThan(csv.length / 20);
    expect(entries[1].compressed).toBe(image.length);
  });

  it("ends with an error when an entry's source fails", async () => {
    const failing = (async function* (): AsyncGenerator<ZipPart> {
      yield {
        name: "responses.csv",
        chunks: (async function* () {
          yield new TextEncoder().encode("a;b\n");
          throw new Error("database gone");
        })(),
      };
    })();
    await expect(collect(zipStream(failing))).rejects.toThrow("database gone");
  });
});
