import { useTranslation } from "~/texts";
import { useHydrated } from "~/components/ui/useHydrated";
import { isRightToLeft, type ContentLanguage } from "~/domain/languages";
import type { LetterWords } from "~/domain/patient-link-views";

export interface Letter {
  url: string;
  qr: string;
  code: string;
  address: string;
  expires: string;
  words: LetterWords[];
}

/**
 * The letter handed to the patient (decision 057), one A4 page: what to do in German and, below, in the link's
 * language, the QR code of the link, the address to type with the short code (named in both languages), and
 * until when it works.
 */
export function LinkLetter({ letter }: { letter: Letter }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  return (
    <article className="link-letter" data-testid="link-letter">
      {hydrated ? (
        <p className="link-letter__print">
          <button type="button" className="btn btn--primary" onClick={() => window.print()}>
            {t("patientLinks.print")}
          </button>
        </p>
      ) : null}
      <div className="link-letter__key">
        <div
          className="link-letter__qr"
          role="img"
          aria-label={letter.words[0]!.scan}
          data-testid="letter-qr"
          // Drawn on the server by the qrcode package from the link's own address.
          dangerouslySetInnerHTML={{ __html: letter.qr }}
        />
        <dl className="link-letter__facts">
          <dt>
            <Labels words={letter.words} label="addressLabel" />
          </dt>
          <dd dir="ltr">{letter.address}</dd>
          <dt>
            <Labels words={letter.words} label="codeLabel" />
          </dt>
          <dd dir="ltr" className="link-letter__code" data-testid="letter-code">
            {letter.code}
          </dd>
        </dl>
      </div>
      {letter.words.map((w) => (
        <section
          key={w.lang}
          lang={w.lang}
          dir={isRightToLeft(w.lang as ContentLanguage) ? "rtl" : "ltr"}
          className="link-letter__text"
          aria-labelledby={`letter-${w.lang}`}
        >
          {w === letter.words[0] ? (
            <h1 id={`letter-${w.lang}`}>{w.title}</h1>
          ) : (
            <h2 id={`letter-${w.lang}`}>{w.title}</h2>
          )}
          <p>{w.intro}</p>
          <ol>
            <li>{w.scan}</li>
            <li>{w.type}</li>
          </ol>
          <p>
            <strong>{w.expires}</strong> {w.once}
          </p>
          <p>{w.help}</p>
        </section>
      ))}
    </article>
  );
}

/** A fact's name in each of the letter's languages ("Adresse / العنوان"), each marked with its own. */
function Labels({ words, label }: { words: LetterWords[]; label: "addressLabel" | "codeLabel" }) {
  const names = words.filter((w, i) => i === 0 || w[label] !== words[0]![label]);
  return names.map((w, i) => (
    <span key={w.lang}>
      {i > 0 ? " / " : null}
      <span lang={w.lang} dir={isRightToLeft(w.lang as ContentLanguage) ? "rtl" : "ltr"} data-letter-label={w.lang}>
        {w[label]}
      </span>
    </span>
  ));
}
