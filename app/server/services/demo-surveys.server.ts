import { year, type DemoOption, type DemoQuestion, type DemoSurvey } from "./demo-survey-shape.server";
import { multilingualSurvey } from "./demo-multilingual-survey.server";
import { woundSurveys } from "./demo-wound-survey.server";

/**
 * The demo surveys a new installation starts with, in German and English, in different states, and one in
 * four languages.
 */

const yesNo = (sub?: DemoQuestion[], score?: { yes: number; no: number }): DemoOption[] => [
  { text: "Ja", sub, score: score?.yes },
  { text: "Nein", score: score?.no },
];

export function demoSurveys(): DemoSurvey[] {
  return [
    {
      title: "Herzinsuffizienz – Verlaufsbogen",
      description: "Strukturierte Verlaufskontrolle für Patientinnen und Patienten mit Herzinsuffizienz.",
      status: 2,
      start: `${year(0)}-01-01`,
      end: `${year(1)}-12-31`,
      target: 250,
      intro: "<p>Bitte beantworten Sie die Fragen gemeinsam mit der Patientin oder dem Patienten.</p>",
      outro: "<p>Vielen Dank für Ihre Angaben.</p>",
      autoId: false,
      cases: { count: 60, seed: 7 },
      // The complaints as points: breathlessness by its grade, swelling noticed or not.
      scoreTitle: "Beschwerdepunkte",
      preliminary: [
        { title: "Geschlecht", options: ["weiblich", "männlich", "divers"] },
        { title: "Altersgruppe", options: ["unter 65", "65 bis 79", "80 und älter"] },
      ],
      categories: [
        {
          title: "Beschwerden",
          questions: [
            {
              title: "Wie stark ist die Atemnot bei Belastung?",
              type: "SingleSelection",
              options: [
                { text: "keine", score: 0 },
                { text: "leicht", score: 1 },
                { text: "mittel", score: 2 },
                { text: "stark", score: 3 },
              ],
            },
            {
              title: "Haben Sie Wassereinlagerungen bemerkt?",
              type: "SingleSelection",
              options: yesNo(
                [
                  {
                    title: "Wo genau?",
                    type: "MultipleSelection",
                    options: [{ text: "Knöchel" }, { text: "Unterschenkel" }, { text: "Bauch" }],
                  },
                ],
                { yes: 1, no: 0 },
              ),
            },
            { title: "Schwangerschaft ausgeschlossen?", type: "SingleSelection", options: yesNo(), showIf: "weiblich" },
            { title: "Weitere Beschwerden", type: "FreeText" },
          ],
        },
        {
          title: "Messwerte",
          questions: [
            { title: "Körpergewicht", type: "Numerical", unit: "kg", range: { min: 48, max: 115, step: 0.1 } },
            {
              title: "Systolischer Blutdruck",
              type: "Numerical",
              unit: "mmHg",
              range: { min: 95, max: 175, step: 1 },
            },
            { title: "Zeitpunkt der Messung", type: "DateTime", attachments: true },
          ],
        },
        {
          title: "Wissen",
          questions: [
            {
              title: "Ab welcher Gewichtszunahme sollte die Praxis informiert werden?",
              type: "SingleSelection",
              test: true,
              options: [
                { text: "1 kg in 3 Tagen" },
                { text: "2 kg in 3 Tagen", correct: true, weight: 2 },
                { text: "5 kg in einer Woche" },
              ],
            },
          ],
        },
      ],
    },
    {
      title: "Post-operative Pain Assessment",
      description: "Pain and recovery after elective surgery, first three days.",
      status: 2,
      start: `${year(0)}-01-01`,
      end: null,
      target: 120,
      intro: "<p>Please ask the patient the following questions.</p>",
      outro: "",
      autoId: true,
      cases: { count: 40, seed: 8 },
      preliminary: [],
      categories: [
        {
          title: "Pain",
          questions: [
            { title: "Pain at rest (0–10)", type: "Numerical", range: { min: 0, max: 10, step: 1 } },
            {
              title: "Which analgesics were given?",
              type: "MultipleSelection",
              options: [{ text: "Metamizole" }, { text: "Ibuprofen" }, { text: "Opioid" }, { text: "None" }],
            },
            {
              title: "Patient wishes to stop the assessment",
              type: "SingleSelection",
              options: [{ text: "Continue" }, { text: "Stop now", exit: true }],
            },
          ],
        },
      ],
    },
    {
      title: "Patientenzufriedenheit Station 3A",
      description: "Entwurf der Zufriedenheitsbefragung.",
      status: 1,
      start: null,
      end: null,
      target: 0,
      intro: "",
      outro: "",
      autoId: true,
      preliminary: [],
      categories: [
        {
          title: "Aufenthalt",
          questions: [
            {
              title: "Wie zufrieden waren Sie insgesamt?",
              type: "SingleSelection",
              options: [{ text: "sehr zufrieden" }, { text: "zufrieden" }, { text: "unzufrieden" }],
            },
          ],
        },
      ],
    },
    {
      title: "Sturzrisiko-Screening",
      description: "Abgeschlossene Erhebung des Vorjahres.",
      status: 2,
      start: `${year(-1)}-01-01`,
      end: `${year(-1)}-12-31`,
      target: 80,
      intro: "",
      outro: "",
      autoId: false,
      preliminary: [],
      categories: [
        {
          title: "Screening",
          questions: [{ title: "Sturz in den letzten 12 Monaten?", type: "SingleSelection", options: yesNo() }],
        },
      ],
    },
    {
      title: "Medikationsabgleich (alt)",
      description: "Archivierte Vorversion.",
      status: 4,
      start: `${year(-2)}-01-01`,
      end: `${year(-2)}-06-30`,
      target: 50,
      intro: "",
      outro: "",
      autoId: false,
      preliminary: [],
      categories: [
        {
          title: "Medikation",
          questions: [{ title: "Anzahl der Dauermedikamente", type: "Numerical", range: { min: 0, max: 12, step: 1 } }],
        },
      ],
    },
    ...woundSurveys(),
    multilingualSurvey(),
  ];
}
