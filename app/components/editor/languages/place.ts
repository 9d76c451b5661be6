import type { TFunction } from "~/i18n";
import type { TranslatableText } from "~/domain/content-languages";

const SHORT = 60;

/** A text's place in words: its field and the start of its source ("Frage „Wie geht es Ihnen?“"). */
export function textPlace(t: TFunction, text: TranslatableText): string {
  const plain = (text.html ? text.source.replace(/<[^>]*>/g, " ") : text.source).replace(/\s+/g, " ").trim();
  const short = plain.length > SHORT ? `${plain.slice(0, SHORT - 1)}…` : plain;
  return t("languages.place", { field: t(`languages.field.${text.label}`), text: short });
}
