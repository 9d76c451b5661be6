import type { LinkState } from "./patient-links";

/** What staff's link pages show of patients' links (docs/decisions/057-patient-links.md). Client-safe. */

export interface LinkRow {
  id: number;
  language: string;
  state: LinkState;
  created: string;
  expires: string;
  renewedFrom: number | null;
}

/** A link just made or renewed: its address, QR code (SVG, drawn on the server), code and expiry, shown once. */
export interface MadeView {
  id: number;
  /** The case's patient id: whose link this is, on the card as on the letter. */
  patientId: string;
  url: string;
  qr: string;
  code: string;
  /** The token, posted back only to print the letter. */
  token: string;
  expires: string;
  language: string;
}

/** The letter's words in one language. */
export interface LetterWords {
  lang: string;
  title: string;
  intro: string;
  scan: string;
  type: string;
  codeLabel: string;
  addressLabel: string;
  expires: string;
  once: string;
  help: string;
}
