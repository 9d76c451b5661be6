import type { ContentLanguage } from "~/domain/content-languages";
import { year, type DemoSurvey } from "./demo-survey-shape.server";

/**
 * A demo survey in four languages (docs/decisions/056-statistics-languages.md): written in German and
 * translated, every text of it, into English, Turkish and Arabic; its demo cases are answered in each of them
 * in turn, so that the statistics' language switch and language filter have something to show.
 */

type Texts = Record<"en" | "tr" | "ar", string>;

/** Each German text of the survey with its translations (the keys are the German texts as written below). */
const translations: Record<string, Texts> = {
  "Befinden im Krankenhaus (mehrsprachig)": {
    en: "Well-being in hospital (multilingual)",
    tr: "Hastanede iyi oluş (çok dilli)",
    ar: "الشعور بالراحة في المستشفى (متعدد اللغات)",
  },
  "Kurze Befragung zum Befinden während des Aufenthalts, auf Deutsch, Englisch, Türkisch und Arabisch.": {
    en: "A short survey on how patients feel during their stay, in German, English, Turkish and Arabic.",
    tr: "Hastanede kalış süresince iyi oluş hakkında kısa bir anket; Almanca, İngilizce, Türkçe ve Arapça.",
    ar: "استبيان قصير عن حالتكم خلال الإقامة في المستشفى، باللغات الألمانية والإنجليزية والتركية والعربية.",
  },
  "<p>Bitte beantworten Sie die Fragen in der Sprache, die Sie am besten verstehen.</p>": {
    en: "<p>Please answer the questions in the language you understand best.</p>",
    tr: "<p>Lütfen soruları en iyi anladığınız dilde yanıtlayın.</p>",
    ar: "<p>يرجى الإجابة عن الأسئلة باللغة التي تفهمونها أفضل.</p>",
  },
  "<p>Vielen Dank für Ihre Antworten.</p>": {
    en: "<p>Thank you for your answers.</p>",
    tr: "<p>Yanıtlarınız için çok teşekkür ederiz.</p>",
    ar: "<p>شكرًا جزيلًا على إجاباتكم.</p>",
  },
  Altersgruppe: { en: "Age group", tr: "Yaş grubu", ar: "الفئة العمرية" },
  "unter 40": { en: "under 40", tr: "40 yaş altı", ar: "أقل من 40" },
  "40 bis 64": { en: "40 to 64", tr: "40 ile 64 arası", ar: "من 40 إلى 64" },
  "65 und älter": { en: "65 and older", tr: "65 ve üzeri", ar: "65 فأكثر" },
  Befinden: { en: "Well-being", tr: "Genel durum", ar: "الحالة العامة" },
  "Wie stark sind Ihre Schmerzen gerade?": {
    en: "How strong is your pain right now?",
    tr: "Şu anda ağrınız ne kadar şiddetli?",
    ar: "ما مدى شدة ألمكم الآن؟",
  },
  "Denken Sie an die letzten 24 Stunden.": {
    en: "Think of the last 24 hours.",
    tr: "Son 24 saati düşünün.",
    ar: "فكّروا في الساعات الأربع والعشرين الماضية.",
  },
  keine: { en: "none", tr: "yok", ar: "لا يوجد" },
  leicht: { en: "mild", tr: "hafif", ar: "خفيف" },
  mittel: { en: "moderate", tr: "orta", ar: "متوسط" },
  stark: { en: "severe", tr: "şiddetli", ar: "شديد" },
  "Haben Sie letzte Nacht gut geschlafen?": {
    en: "Did you sleep well last night?",
    tr: "Dün gece iyi uyudunuz mu?",
    ar: "هل نمتم جيدًا الليلة الماضية؟",
  },
  Ja: { en: "Yes", tr: "Evet", ar: "نعم" },
  Nein: { en: "No", tr: "Hayır", ar: "لا" },
  "Was hat Sie gestört?": { en: "What disturbed you?", tr: "Sizi ne rahatsız etti?", ar: "ما الذي أزعجكم؟" },
  Lärm: { en: "Noise", tr: "Gürültü", ar: "الضجيج" },
  Schmerzen: { en: "Pain", tr: "Ağrı", ar: "الألم" },
  Sorgen: { en: "Worries", tr: "Endişeler", ar: "القلق" },
  "Wie viele Stunden haben Sie geschlafen?": {
    en: "How many hours did you sleep?",
    tr: "Kaç saat uyudunuz?",
    ar: "كم ساعة نمتم؟",
  },
  Stunden: { en: "hours", tr: "saat", ar: "ساعات" },
  Betreuung: { en: "Care", tr: "Bakım", ar: "الرعاية" },
  "Haben Sie die Erklärungen zu Ihrer Behandlung verstanden?": {
    en: "Did you understand the explanations of your treatment?",
    tr: "Tedavinizle ilgili açıklamaları anladınız mı?",
    ar: "هل فهمتم الشروح المتعلقة بعلاجكم؟",
  },
  vollständig: { en: "fully", tr: "tamamen", ar: "تمامًا" },
  teilweise: { en: "partly", tr: "kısmen", ar: "جزئيًا" },
  kaum: { en: "hardly", tr: "pek az", ar: "بالكاد" },
  "Wie zufrieden sind Sie mit der Pflege?": {
    en: "How satisfied are you with the nursing care?",
    tr: "Hemşirelik bakımından ne kadar memnunsunuz?",
    ar: "ما مدى رضاكم عن التمريض؟",
  },
  "sehr zufrieden": { en: "very satisfied", tr: "çok memnun", ar: "راضٍ جدًا" },
  zufrieden: { en: "satisfied", tr: "memnun", ar: "راضٍ" },
  unzufrieden: { en: "dissatisfied", tr: "memnun değil", ar: "غير راضٍ" },
  "Was möchten Sie uns noch sagen?": {
    en: "Is there anything else you would like to tell us?",
    tr: "Bize söylemek istediğiniz başka bir şey var mı?",
    ar: "هل هناك شيء آخر تودّون إخبارنا به؟",
  },
};

/** The words the demo cases' free texts are made of, in the language each case was filled in. */
const words: Record<ContentLanguage, string[]> = {
  de: ["ruhig", "freundlich", "laut", "Essen", "Wartezeit", "hilfsbereit"],
  en: ["quiet", "friendly", "noisy", "food", "waiting", "helpful"],
  tr: ["sakin", "nazik", "gürültülü", "yemek", "bekleme", "yardımsever"],
  ar: ["هادئ", "ودود", "صاخب", "الطعام", "الانتظار", "متعاون"],
  ru: [],
  uk: [],
  pl: [],
};

export function multilingualSurvey(): DemoSurvey {
  return {
    title: "Befinden im Krankenhaus (mehrsprachig)",
    description: "Kurze Befragung zum Befinden während des Aufenthalts, auf Deutsch, Englisch, Türkisch und Arabisch.",
    status: 2,
    start: `${year(0)}-01-01`,
    end: `${year(1)}-12-31`,
    target: 100,
    intro: "<p>Bitte beantworten Sie die Fragen in der Sprache, die Sie am besten verstehen.</p>",
    outro: "<p>Vielen Dank für Ihre Antworten.</p>",
    autoId: false,
    languages: { offered: ["en", "tr", "ar"], translations },
    cases: { count: 40, seed: 11, languages: ["de", "en", "tr", "ar"], wordsByLanguage: words },
    preliminary: [{ title: "Altersgruppe", options: ["unter 40", "40 bis 64", "65 und älter"] }],
    categories: [
      {
        title: "Befinden",
        questions: [
          {
            title: "Wie stark sind Ihre Schmerzen gerade?",
            type: "SingleSelection",
            hint: "Denken Sie an die letzten 24 Stunden.",
            options: [
              { text: "keine", often: 3 },
              { text: "leicht", often: 4 },
              { text: "mittel", often: 2 },
              { text: "stark", often: 1 },
            ],
          },
          {
            title: "Haben Sie letzte Nacht gut geschlafen?",
            type: "SingleSelection",
            options: [
              { text: "Ja", often: 2 },
              {
                text: "Nein",
                sub: [
                  {
                    title: "Was hat Sie gestört?",
                    type: "MultipleSelection",
                    options: [{ text: "Lärm" }, { text: "Schmerzen" }, { text: "Sorgen" }],
                  },
                ],
              },
            ],
          },
          {
            title: "Wie viele Stunden haben Sie geschlafen?",
            type: "Numerical",
            unit: "Stunden",
            range: { min: 2, max: 10, step: 0.5 },
          },
        ],
      },
      {
        title: "Betreuung",
        questions: [
          {
            title: "Haben Sie die Erklärungen zu Ihrer Behandlung verstanden?",
            type: "SingleSelection",
            options: [{ text: "vollständig", often: 5 }, { text: "teilweise", often: 3 }, { text: "kaum" }],
          },
          {
            title: "Wie zufrieden sind Sie mit der Pflege?",
            type: "SingleSelection",
            options: [{ text: "sehr zufrieden", often: 4 }, { text: "zufrieden", often: 4 }, { text: "unzufrieden" }],
          },
          { title: "Was möchten Sie uns noch sagen?", type: "FreeText" },
        ],
      },
    ],
  };
}
