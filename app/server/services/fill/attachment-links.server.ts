import crypto from "node:crypto";
import { readOrCreateSecret } from "~/server/secrets.server";

/**
 * Short-lived download links for attachments: the token names the attachment and the moment it expires,
 * signed with HMAC-SHA256 under ATTACHMENT_LINK_SECRET, or else a secret generated into the data folder
 * (several copies of the server must share one). Whoever holds a valid link may download
 * that one file until it expires; the link is handed out only after the permission check.
 */
export const ATTACHMENT_LINK_TTL_MS = 10 * 60 * 1000;

const SECRET_FILE = "attachment-links.secret";
const secrets = new Map<string, string>();

/** The signing secret of a data folder, made on first use. */
export function attachmentLinkSecret(dataDir: string): string {
  let secret = secrets.get(dataDir);
  if (!secret) {
    secret = readOrCreateSecret(dataDir, SECRET_FILE);
    secrets.set(dataDir, secret);
  }
  return secret;
}

function signature(secret: string, attachmentId: number, expires: number): string {
  return crypto.createHmac("sha256", secret).update(`attachment:${attachmentId}:${expires}`).digest("base64url");
}

/** A token for one attachment, valid for 10 minutes from `now`. */
export function signAttachmentToken(secret: string, attachmentId: number, now = new Date()): string {
  const expires = Math.floor((now.getTime() + ATTACHMENT_LINK_TTL_MS) / 1000);
  return `${attachmentId}.${expires}.${signature(secret, attachmentId, expires)}`;
}

const TOKEN = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** The attachment id a token grants, or null when it is malformed, forged or expired. */
export function verifyAttachmentToken(secret: string, token: string, now = new Date()): number | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const attachmentId = Number(m[1]);
  const expires = Number(m[2]);
  const expected = Buffer.from(signature(secret, attachmentId, expires));
  const given = Buffer.from(m[3]);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return now.getTime() < expires * 1000 ? attachmentId : null;
}

/** The file name for a Content-Disposition header: an ASCII fallback and the full name in UTF-8. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\;]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
