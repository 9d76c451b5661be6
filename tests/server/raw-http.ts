import net from "node:net";

/** One answer read off a raw connection: its status, headers (lower-case names) and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request written as bytes, as a client or proxy sends it on a kept connection. */
export function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | string = "",
): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const chunked = Object.entries(headers).some(([k, v]) => k.toLowerCase() === "transfer-encoding" && v === "chunked");
  const lines = [`${method} ${path} HTTP/1.1`, "Host: localhost"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (!chunked && !Object.keys(headers).some((k) => k.toLowerCase() === "content-length")) {
    lines.push(`Content-Length: ${bytes.length}`);
  }
  const payload = chunked
    ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n0\r\n\r\n")])
    : bytes;
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), payload]);
}

/** Reads whole answers (Content-Length or chunked bodies) from what a connection received so far. */
function parseAnswers(buffer: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n", at);
    if (end < 0) return answers;
    const [statusLine, ...headerLines] = buffer.subarray(at, end).toString("latin1").split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let bodyStart = end + 4;
    let body: Buffer;
    if (headers["transfer-encoding"] === "chunked") {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = buffer.indexOf("\r\n", bodyStart);
        if (lineEnd < 0) return answers;
        const size = parseInt(buffer.subarray(bodyStart, lineEnd).toString(), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return answers;
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        bodyStart = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length < bodyStart + length) return answers;
      body = buffer.subarray(bodyStart, bodyStart + length);
      bodyStart += length;
    }
    answers.push({ status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8") });
    at = bodyStart;
  }
}

/**
 * Sends requests one after the other on one connection (each `gapMs` after the last was written), and
 * answers what came back before the connection closed or `waitMs` passed after the last was sent.
 */
export function onOneConnection(
  port: number,
  requests: Buffer[],
  opts: { gapMs?: number; waitMs?: number; untilClosed?: boolean } = {},
): Promise<{ answers: RawAnswer[]; closed: boolean }> {
  const { gapMs = 300, waitMs = 2000, untilClosed = false } = opts;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers: parseAnswers(Buffer.concat(received)), closed });
    };
    socket.on("data", (d) => {
      received.push(d);
      if (!untilClosed && parseAnswers(Buffer.concat(received)).length === requests.length) finish();
    });
    socket.on("close", () => {
      closed = true;
      finish();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") return;
      reject(error);
    });
    let i = 0;
    const next = () => {
      if (socket.destroyed) return;
      socket.write(requests[i++]!);
      if (i < requests.length) setTimeout(next, gapMs);
      else timer = setTimeout(finish, waitMs);
    };
    socket.once("connect", next);
  });
}
