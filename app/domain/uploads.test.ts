import { describe, expect, it } from "vitest";
import {
  allowedExtensions,
  cleanFileName,
  contentMatchesExtension,
  contentTypeOf,
  fileExtension,
  freeFileName,
  isAllowedExtension,
  MAX_ATTACHMENT_BYTES,
  uploadRefusal,
} from "./uploads";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

const samples = {
  jpg: bytes([0xff, 0xd8, 0xff, 0xe0], "JFIF"),
  gif: bytes("GIF89a", [1, 0, 1, 0]),
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], "IHDR"),
  webp: bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "),
  pdf: bytes("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj"),
  docx: bytes([0x50, 0x4b, 0x03, 0x04], [0, 0], "[Content_Types].xml", [0], "word/document.xml"),
  xlsx: bytes([0x50, 0x4b, 0x03, 0x04], "xl/workbook.xml"),
  pptx: bytes([0x50, 0x4b, 0x03, 0x04], "ppt/presentation.xml"),
  ole: bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], [0, 0, 0, 0]),
  mp4: bytes([0, 0, 0, 0x20], "ftypisom"),
  webm: bytes([0x1a, 0x45, 0xdf, 0xa3], [0x9f, 0x42, 0x86]),
  text: bytes("Blutdruck 120/80\n"),
  rtf: bytes("{\\rtf1\\ansi Hallo}"),
};

describe("file names and extensions", () => {
  it("has the 17 extensions of the specification", () => {
    expect(allowedExtensions).toHaveLength(17);
    for (const ext of ["jpg", "jpeg", "jpe", "gif", "png", "webp", "txt", "rtf", "doc", "docx"]) {
      expect(isAllowedExtension(ext)).toBe(true);
    }
    for (const ext of ["xls", "xlsx", "ppt", "pptx", "pdf", "mp4", "webm"]) expect(isAllowedExtension(ext)).toBe(true);
    for (const ext of ["exe", "js", "html", "svg", "zip", ""]) expect(isAllowedExtension(ext)).toBe(false);
  });

  it("reads the extension in lower case; none for dot files and names without a dot", () => {
    expect(fileExtension("Befund.PDF")).toBe("pdf");
    expect(fileExtension("archiv.tar.gz")).toBe("gz");
    expect(fileExtension(".png")).toBe("");
    expect(fileExtension("README")).toBe("");
    expect(fileExtension("name.")).toBe("");
  });

  it("keeps the last path segment of a name and refuses unusable names", () => {
    expect(cleanFileName("C:\\Users\\x\\Röntgen.png")).toBe("Röntgen.png");
    expect(cleanFileName("../../etc/passwd.txt")).toBe("passwd.txt");
    expect(cleanFileName("  bild.png ")).toBe("bild.png");
    // A right-to-left override would show "evil\u202egnp.txt" as "eviltxt.png".
    expect(cleanFileName("evil\u202egnp.txt")).toBe("evilgnp.txt");
    expect(cleanFileName("\u2067a\u200f.pdf\u2069")).toBe("a.pdf");
    expect(cleanFileName("a/")).toBeNull();
    expect(cleanFileName("..")).toBeNull();
    expect(cleanFileName("bad\u0000.png")).toBeNull();
    expect(cleanFileName(`${"x".repeat(300)}.png`)).toBeNull();
  });

  it("serves by extension", () => {
    expect(contentTypeOf("png")).toBe("image/png");
    expect(contentTypeOf("txt")).toBe("text/plain; charset=utf-8");
  });
});

describe("upload refusals", () => {
  const file = (name: string, size = 10) => ({ name, size });

  it("accepts an allowed file", () => {
    expect(uploadRefusal(file("bild.png"), [])).toBeNull();
    expect(uploadRefusal(file("bild.png", MAX_ATTACHMENT_BYTES), ["a.pdf"])).toBeNull();
  });

  it("refuses other extensions", () => {
    expect(uploadRefusal(file("setup.exe"), [])).toBe("SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED");
    expect(uploadRefusal(file("noextension"), [])).toBe("SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED");
  });

  it("refuses files above 4,000,000 bytes", () => {
    expect(uploadRefusal(file("big.txt", MAX_ATTACHMENT_BYTES + 1), [])).toBe("SURVEY_ATTACHMENTS_TOO_LARGE");
  });

  it("refuses a name the question already holds, whatever its case", () => {
    expect(uploadRefusal(file("Bild.PNG"), ["bild.png"])).toBe("SURVEY_ATTACHMENTS_DUPLICATED_FILENAME");
    expect(uploadRefusal(file("bild.png"), ["bild.jpg"])).toBeNull();
  });

  it("frees a taken name on the device: a camera's second image.jpg goes as image (2).jpg", () => {
    expect(freeFileName("image.jpg", [])).toBe("image.jpg");
    expect(freeFileName("image.jpg", ["image.jpg"])).toBe("image (2).jpg");
    expect(freeFileName("IMAGE.JPG", ["image.jpg", "image (2).jpg"])).toBe("IMAGE (3).JPG");
    // A freed name taken again counts on from the first name, and a free gap is taken.
    expect(freeFileName("image (2).jpg", ["image.jpg", "image (2).jpg"])).toBe("image (3).jpg");
    expect(freeFileName("image.jpg", ["image.jpg", "image (3).jpg"])).toBe("image (2).jpg");
    expect(freeFileName("notiz", ["notiz"])).toBe("notiz (2)");
    expect(freeFileName("C:\\fotos\\image.jpg", ["image.jpg"])).toBe("image (2).jpg");
    // What it gives is never refused as a duplicate.
    const taken = ["image.jpg", "image (2).jpg"];
    expect(uploadRefusal(file(freeFileName("image.jpg", taken)), taken)).toBeNull();
  });

  it("refuses a sixth file", () => {
    const five = ["1.png", "2.png", "3.png", "4.png", "5.png"];
    expect(uploadRefusal(file("6.png"), five)).toBe("SURVEY_ATTACHMENTS_TOO_MANY");
    expect(uploadRefusal(file("6.png"), five.slice(1))).toBeNull();
  });

  it("refuses everything for a question that takes no files, and unusable names", () => {
    expect(uploadRefusal(file("bild.png"), [], { allowsAttachments: false })).toBe("SURVEY_ATTACHMENTS_NOT_ALLOWED");
    expect(uploadRefusal(file("/"), [])).toBe("SURVEY_ATTACHMENTS_NOT_ALLOWED");
  });
});

describe("content check", () => {
  it("accepts each binary type by its magic bytes", () => {
    for (const ext of ["jpg", "jpeg", "jpe"] as const) expect(contentMatchesExtension(ext, samples.jpg)).toBe(true);
    expect(contentMatchesExtension("gif", samples.gif)).toBe(true);
    expect(contentMatchesExtension("gif", bytes("GIF87a"))).toBe(true);
    expect(contentMatchesExtension("png", samples.png)).toBe(true);
    expect(contentMatchesExtension("webp", samples.webp)).toBe(true);
    expect(contentMatchesExtension("pdf", samples.pdf)).toBe(true);
    expect(contentMatchesExtension("docx", samples.docx)).toBe(true);
    expect(contentMatchesExtension("xlsx", samples.xlsx)).toBe(true);
    expect(contentMatchesExtension("pptx", samples.pptx)).toBe(true);
    for (const ext of ["doc", "xls", "ppt"] as const) expect(contentMatchesExtension(ext, samples.ole)).toBe(true);
    expect(contentMatchesExtension("mp4", samples.mp4)).toBe(true);
    expect(contentMatchesExtension("webm", samples.webm)).toBe(true);
  });

  it("refuses a file whose content is another type than its name says", () => {
    expect(contentMatchesExtension("png", samples.text)).toBe(false);
    expect(contentMatchesExtension("png", samples.jpg)).toBe(false);
    expect(contentMatchesExtension("jpg", samples.png)).toBe(false);
    expect(contentMatchesExtension("pdf", samples.docx)).toBe(false);
    expect(contentMatchesExtension("docx", samples.xlsx)).toBe(false);
    expect(contentMatchesExtension("xlsx", samples.ole)).toBe(false);
    expect(contentMatchesExtension("webp", bytes("RIFF", [0, 0, 0, 0], "WAVE"))).toBe(false);
    expect(contentMatchesExtension("mp4", samples.webm)).toBe(false);
    expect(contentMatchesExtension("gif", new Uint8Array())).toBe(false);
  });

  it("finds a PDF header within the first 1024 bytes only", () => {
    expect(contentMatchesExtension("pdf", bytes(" ".repeat(100), "%PDF-1.4"))).toBe(true);
    expect(contentMatchesExtension("pdf", bytes(" ".repeat(1100), "%PDF-1.4"))).toBe(false);
  });

  it("takes text without NUL bytes as txt and rtf", () => {
    expect(contentMatchesExtension("txt", samples.text)).toBe(true);
    expect(contentMatchesExtension("txt", new Uint8Array())).toBe(true);
    expect(contentMatchesExtension("rtf", samples.rtf)).toBe(true);
    expect(contentMatchesExtension("txt", samples.png)).toBe(false);
    expect(contentMatchesExtension("rtf", samples.ole)).toBe(false);
  });
});
