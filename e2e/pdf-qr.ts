import jsQR from "jsqr";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** What a PDF holds: its pages, its text, and the QR code drawn on its first page (decoded), if any. */
export async function readPdf(pdf: Buffer): Promise<{ pages: number; text: string; qr: string | null }> {
  const task = getDocument({ data: new Uint8Array(pdf) });
  const doc = await task.promise;
  try {
    const first = await doc.getPage(1);
    const content = await first.getTextContent();
    const text = content.items.map((item) => ("str" in item ? item.str : "")).join(" ");
    // Drawn at three times its size (a point of the A4 page becomes three pixels): the code's modules are
    // then a few pixels wide, as a phone's camera would see them on paper.
    const viewport = first.getViewport({ scale: 3 });
    const [width, height] = [Math.ceil(viewport.width), Math.ceil(viewport.height)];
    const factory = doc.canvasFactory as {
      create(w: number, h: number): { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D };
    };
    const { canvas, context } = factory.create(width, height);
    await first.render({ canvas, canvasContext: context, viewport }).promise;
    const pixels = context.getImageData(0, 0, width, height);
    return { pages: doc.numPages, text, qr: jsQR(pixels.data, width, height)?.data ?? null };
  } finally {
    await task.destroy();
  }
}
