/**
 * Where the long words of a title may break, so that a narrow screen breaks "Dokumen-tation" with a hyphen at
 * a syllable instead of "Dokumentatio/n" anywhere (the page puts a soft hyphen there, `Hyphenated`). Chromium
 * on Linux has no hyphenation dictionary for CSS `hyphens: auto`, so the break points come from here: the usual syllable rules for German
 * (one consonant goes to the next syllable; of several, the next syllable takes the last one, or the last
 * two or three where they can start a German syllable, like dr, kr, st, str, schw; ch, ck, sch, ph and qu
 * stay together, as do the vowel pairs au, äu, ei, eu, ie, ai). Compounds are not recognised otherwise; a
 * break at a syllable of a compound is still a break at a syllable.
 */

const MIN_WORD = 10;
const MIN_BEFORE = 2;
const MIN_AFTER = 3;

const VOWEL = /[aeiouyäöü]/i;
const PAIRS = ["au", "äu", "ei", "eu", "ie", "ai"];
const CLUSTERS = ["sch", "ch", "ck", "ph", "qu"];
/** Consonants (as units) that can start a syllable together. */
const ONSETS = new Set([
  "bl",
  "br",
  "dr",
  "fl",
  "fr",
  "gl",
  "gr",
  "kl",
  "kr",
  "pl",
  "pr",
  "tr",
  "sp",
  "st",
  "zw",
  "pf",
  "wr",
  "schl",
  "schm",
  "schn",
  "schr",
  "schw",
  "spr",
  "str",
  "spl",
]);

/** The word split into units: a vowel pair or a consonant cluster counts as one letter. */
function units(word: string): string[] {
  const out: string[] = [];
  const lower = word.toLowerCase();
  for (let i = 0; i < word.length;) {
    const pair = PAIRS.find((p) => lower.startsWith(p, i));
    const cluster = CLUSTERS.find((c) => lower.startsWith(c, i));
    const length = pair?.length ?? cluster?.length ?? 1;
    out.push(word.slice(i, i + length));
    i += length;
  }
  return out;
}

const isVowel = (unit: string) => VOWEL.test(unit[0]!);

/** Where a long word may break: the character offsets before which a syllable starts. */
export function syllableBreaks(word: string): number[] {
  if (word.length < MIN_WORD || !/^[a-zäöüß]+$/i.test(word)) return [];
  const parts = units(word);
  const breaks: number[] = [];
  let offset = 0;
  const offsets = parts.map((u) => {
    const at = offset;
    offset += u.length;
    return at;
  });
  let lastVowel = -1;
  for (let i = 0; i < parts.length; i++) {
    if (!isVowel(parts[i]!)) continue;
    if (lastVowel >= 0 && i - lastVowel > 1) {
      // The consonants between two vowels: the next syllable starts with the last one, or with more of them
      // where they can start a syllable together (keeping one with the syllable before).
      let start = i - 1;
      for (const size of [3, 2]) {
        const from = i - size;
        if (from > lastVowel + 1 && ONSETS.has(parts.slice(from, i).join("").toLowerCase())) {
          start = from;
          break;
        }
      }
      breaks.push(offsets[start]!);
    }
    lastVowel = i;
  }
  return breaks.filter((at) => at >= MIN_BEFORE && word.length - at >= MIN_AFTER);
}

/** The text in pieces between its long words' syllable breaks (the pieces joined are the text). */
export function hyphenParts(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const match of text.matchAll(/[A-Za-zÄÖÜäöüß]+/g)) {
    for (const at of syllableBreaks(match[0])) {
      parts.push(text.slice(from, match.index + at));
      from = match.index + at;
    }
  }
  parts.push(text.slice(from));
  return parts;
}
