import type { Page } from "@playwright/test";
import { api } from "./api";
import { surveyWith } from "./fill-support";

interface Tree {
  Categories: { Id: number; Questions: { Id: number; AnswerOptions: { Id: number }[] }[] }[];
  PatientForm: { Id: number; AnswerOptions: { Id: number }[] }[];
}

/** Each text of the survey below in one language, in the order the survey has them. */
export interface Words {
  title: string;
  intro: string;
  preliminary: string;
  entries: [string, string];
  category: string;
  choice: string;
  answers: [string, string];
  free: string;
}

const german: Words = {
  title: "Sprachen",
  intro: "Willkommen",
  preliminary: "Raucher?",
  entries: ["ja", "nein"],
  category: "Befinden",
  choice: "Wie geht es Ihnen?",
  answers: ["gut", "schlecht"],
  free: "Was fehlt Ihnen?",
};

export const arabic: Words = {
  title: "اللغات",
  intro: "أهلًا وسهلًا",
  preliminary: "هل تدخن؟",
  entries: ["نعم", "لا"],
  category: "الحالة",
  choice: "كيف حالك؟",
  answers: ["بخير", "لست بخير"],
  free: "ممّ تشكو؟",
};

export const turkish: Words = {
  title: "Diller",
  intro: "Hoş geldiniz",
  preliminary: "Sigara içiyor musunuz?",
  entries: ["evet", "hayır"],
  category: "Durum",
  choice: "Nasılsınız?",
  answers: ["iyi", "kötü"],
  free: "Şikâyetiniz nedir?",
};

/**
 * A published survey written in German and offered in Turkish and Arabic, every text translated through the
 * API (PUT /surveys/{id}/translations/{language}); its title carries `tag` so that each test has its own.
 */
export async function translatedSurvey(page: Page, tag: string, languages = { tr: turkish, ar: arabic }) {
  return surveyWith(page, `${german.title} ${tag}`, {
    intro: german.intro,
    preliminary: [{ Title: german.preliminary, answers: german.entries }],
    categories: [
      {
        Title: german.category,
        questions: [
          { Title: german.choice, Type: "SingleSelection", answers: german.answers },
          { Title: german.free, Type: "FreeText" },
        ],
      },
    ],
    prepare: async (id) => {
      await api(page, "PUT", `/surveys/${id}`, { Languages: Object.keys(languages) });
      const tree = await api<Tree>(page, "GET", `/surveys/${id}`);
      const [category] = tree.Categories;
      const [choice, free] = category!.Questions;
      const [attribute] = tree.PatientForm;
      for (const [lang, w] of Object.entries(languages)) {
        const Texts = [
          { Key: "Title", Text: `${w.title} ${tag}` },
          { Key: "IntroText", Text: `<p>${w.intro}</p>` },
          { Key: `attribute:${attribute!.Id}`, Text: w.preliminary },
          ...attribute!.AnswerOptions.map((o, i) => ({ Key: `entry:${o.Id}`, Text: w.entries[i]! })),
          { Key: `category:${category!.Id}`, Text: w.category },
          { Key: `question:${choice!.Id}`, Text: w.choice },
          ...choice!.AnswerOptions.map((o, i) => ({ Key: `answer:${o.Id}`, Text: w.answers[i]! })),
          { Key: `question:${free!.Id}`, Text: w.free },
        ];
        await api(page, "PUT", `/surveys/${id}/translations/${lang}`, { Texts });
      }
    },
  });
}

export { german };
