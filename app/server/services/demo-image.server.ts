import zlib from "node:zlib";

/**
 * The picture of the demo image question: a person seen from the front, drawn as a PNG when the demo data
 * is seeded (no file to ship), as a data URL the question stores like any uploaded image.
 */

const WIDTH = 200;
const HEIGHT = 400;

type Shape = (x: number, y: number) => boolean;

const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const box =
  (x0: number, y0: number, x1: number, y1: number): Shape =>
  (x, y) =>
    x >= x0 && x <= x1 && y >= y0 && y <= y1;
/** A limb from (x0, y0) to (x1, y1), `width` wide, with round ends. */
const limb =
  (x0: number, y0: number, x1: number, y1: number, width: number): Shape =>
  (x, y) => {
    const dx = x1 - x0;
    const dy = y1 - y0;
    const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
    return (x - (x0 + t * dx)) ** 2 + (y - (y0 + t * dy)) ** 2 <= (width / 2) ** 2;
  };

const body: Shape[] = [
  circle(100, 38, 26), // head
  box(90, 60, 110, 76), // neck
  limb(70, 92, 130, 92, 36), // shoulders
  box(66, 90, 134, 200), // trunk
  limb(62, 92, 34, 190, 22), // arms
  limb(138, 92, 166, 190, 22),
  circle(30, 204, 12), // hands
  circle(170, 204, 12),
  limb(84, 196, 82, 372, 30), // legs
  limb(116, 196, 118, 372, 30),
  limb(78, 380, 66, 386, 14), // feet
  limb(122, 380, 134, 386, 14),
];

const inside = (x: number, y: number) => body.some((shape) => shape(x + 0.5, y + 0.5));

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** The silhouette on white, with a darker outline, as a PNG data URL. */
export function bodyOutlineDataUrl(): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.alloc(HEIGHT * (1 + WIDTH * 3));
  for (let y = 0; y < HEIGHT; y++) {
    const row = y * (1 + WIDTH * 3);
    for (let x = 0; x < WIDTH; x++) {
      let rgb = [255, 255, 255];
      if (inside(x, y)) {
        const edge = !inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1) || !inside(x, y + 1);
        rgb = edge ? [74, 96, 122] : [214, 224, 236];
      }
      rows.set(rgb, row + 1 + x * 3);
    }
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString("base64")}`;
}
