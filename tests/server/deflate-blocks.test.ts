import crypto from "node:crypto";
import zlib from "node:zlib";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  BLOCK_LEVEL,
  crc32Combine,
  DEFLATE_END,
  deflateBlock,
} from "~/server/services/statistics/deflate-blocks.server";
import { zipStream } from "~/server/services/statistics/zip.server";

/**
 * The export's deflate blocks (docs/decisions/061-export-blocks.md): blocks compressed apart, one after the
 * other, make one deflate stream, and the CRC-32 combined from theirs is zlib's of the whole.
 */

/** CSV-like text that compresses as the export's lines do, of a given length. */
function lines(length: number, seed: number): Uint8Array {
  const words = ["Antwort 1", "Antwort 2", "Seit gestern Husten", "81,25", "2024-03-01T08:00:00+01:00", "ä;ö;ü"];
  let text = "";
  for (let i = 0; text.length < length; i++) text += `${words[(i * 7 + seed) % words.length]};${i % 13}\r\n`;
  return new TextEncoder().encode(text.slice(0, length));
}

const join = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

describe("deflate blocks", () => {
  it("crc32Combine gives zlib's CRC-32 of the whole, whatever the split", () => {
    const data = crypto.randomBytes(200_003);
    for (const at of [0, 1, 7, 4096, 100_000, 199_999, 200_003]) {
      const [a, b] = [data.subarray(0, at), data.subarray(at)];
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(data));
    }
    // Many parts, folded left as the zip entry folds its blocks.
    let crc = 0;
    for (let at = 0; at < data.length; at += 12_345) {
      const part = data.subarray(at, at + 12_345);
      crc = crc32Combine(crc, zlib.crc32(part), part.length);
    }
    expect(crc).toBe(zlib.crc32(data));
  });

  it("blocks compressed apart inflate, one after the other, to the whole", async () => {
    const parts = [lines(0, 1), lines(1, 2), lines(70_000, 3), lines(1_400_000, 4), lines(333, 5)];
    const blocks = await Promise.all(parts.map(deflateBlock));
    for (const [i, b] of blocks.entries()) {
      expect(b.size).toBe(parts[i].length);
      expect(b.crc).toBe(zlib.crc32(parts[i]));
      // A sync flush ends each block: byte-aligned, not final.
      expect([...b.bytes.subarray(-4)]).toEqual([0x00, 0x00, 0xff, 0xff]);
    }
    const stream = join([...blocks.map((b) => b.bytes), DEFLATE_END]);
    expect(Buffer.compare(zlib.inflateRawSync(stream), Buffer.from(join(parts)))).toBe(0);
    // Compressed apart, the blocks stay near one stream's size at their level (each starts without the others'
    // words).
    const whole = zlib.deflateRawSync(join(parts), { level: BLOCK_LEVEL }).length;
    expect(stream.length).toBeLessThan(whole * 1.05 + 64);
  });

  it("a zip entry of blocks and plain pieces is readable and records the whole's size and CRC-32", async () => {
    const header = lines(120, 9);
    const parts = [lines(50_000, 1), lines(80_000, 2), lines(10, 3)];
    const blocks = await Promise.all(parts.map(deflateBlock));
    async function* entry() {
      yield header;
      yield blocks[0];
      yield blocks[1];
      yield lines(5_000, 4);
      yield blocks[2];
    }
    const whole = join([header, ...parts.slice(0, 2), lines(5_000, 4), parts[2]]);
    const zip = Buffer.from(
      await new Response(
        zipStream(
          (async function* () {
            yield { name: "responses.csv", blocks: entry() };
          })(),
        ),
      ).arrayBuffer(),
    );
    expect(Buffer.compare(Buffer.from(unzipSync(new Uint8Array(zip))["responses.csv"]), Buffer.from(whole))).toBe(0);
    // The central directory's record, which an unzip checks the content against.
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(zip.readUInt16LE(end + 10)).toBe(8);
    expect(zip.readUInt32LE(end + 16)).toBe(zlib.crc32(whole));
    expect(zip.readUInt32LE(end + 24)).toBe(whole.length);
  });
});
