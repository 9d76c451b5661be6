import { year, type DemoSurvey } from "./demo-survey-shape.server";

/**
 * Wound documentation: an image question with answer markers, a question that a preliminary answer hides,
 * and (below) a copy on a second ward, so that benchmarking has a survey to compare with.
 */
function woundSurvey(): DemoSurvey {
  return {
    title: "Wundverlauf – Dokumentation",
    description: "Lage, Befund und Versorgung akuter und chronischer Wunden im Verlauf.",
    status: 2,
    start: `${year(0)}-01-01`,
    end: `${year(1)}-12-31`,
    target: 150,
    intro: "<p>Markieren Sie auf dem Bild, wo sich Wunden befinden, und dokumentieren Sie den Verbandwechsel.</p>",
    outro: "<p>Vielen Dank, die Wunddokumentation ist vollständig.</p>",
    autoId: false,
    preliminary: [
      { title: "Art der Wunde", options: ["akut", "chronisch"] },
      { title: "Mobilität", options: ["selbstständig mobil", "eingeschränkt mobil", "bettlägerig"] },
    ],
    categories: [
      {
        title: "Lage",
        questions: [
          {
            title: "Wo befinden sich die Wunden?",
            type: "Image",
            image: "body",
            multiple: true,
            // Chronic wounds sit mostly on the lower leg and the foot.
            options: [
              { text: "Kopf", at: [0.5, 0.095] },
              { text: "Brust", at: [0.5, 0.3] },
              { text: "Bauch", at: [0.5, 0.425], often: 2 },
              { text: "Hand", at: [0.15, 0.51], often: 2 },
              { text: "Knie", at: [0.415, 0.7], often: 2 },
              { text: "Unterschenkel", at: [0.585, 0.8], often: 6 },
              { text: "Fuß", at: [0.36, 0.955], often: 5 },
            ],
          },
        ],
      },
      {
        title: "Befund",
        questions: [
          { title: "Wundfläche", type: "Numerical", unit: "cm²", range: { min: 0.5, max: 40, step: 0.5 } },
          {
            title: "Exsudat",
            type: "SingleSelection",
            options: [
              { text: "kein", often: 2 },
              { text: "wenig", often: 4 },
              { text: "mäßig", often: 3 },
              { text: "stark", often: 1 },
            ],
          },
          { title: "Bemerkungen zur Wunde", type: "FreeText", attachments: true },
        ],
      },
      {
        title: "Versorgung",
        questions: [
          { title: "Zeitpunkt des letzten Verbandwechsels", type: "DateTime" },
          { title: "Schmerz beim Verbandwechsel (0–10)", type: "Numerical", range: { min: 0, max: 10, step: 1 } },
          {
            title: "Kann der Verband selbst gewechselt werden?",
            type: "SingleSelection",
            // Not asked of someone who is bedridden.
            hideIf: "bettlägerig",
            options: [{ text: "ja", often: 2 }, { text: "mit Hilfe von Angehörigen", often: 2 }, { text: "nein" }],
          },
        ],
      },
    ],
    cases: { count: 50, seed: 11, words: woundWords },
  };
}

const woundWords = [
  "Rötung",
  "trocken",
  "nässend",
  "Granulation",
  "Beläge",
  "heilt",
  "Wundrand",
  "sauber",
  "Geruch",
  "kleiner",
];

/** The wound documentation and its copy on a second ward, to compare with (benchmarking). */
export function woundSurveys(): DemoSurvey[] {
  const wound = woundSurvey();
  return [
    wound,
    {
      ...wound,
      title: "Wundverlauf – Dokumentation (Station B)",
      description: "Dieselbe Wunddokumentation auf einer zweiten Station: zum Vergleich mit der ersten (Benchmark).",
      target: 100,
      copyOf: wound.title,
      cases: { count: 35, seed: 12, words: woundWords },
    },
  ];
}
