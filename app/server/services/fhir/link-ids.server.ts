/**
 * The linkIds of the product's Questionnaires (docs/decisions/040-fhir.md): made of the ids (C<id>,
 * P<id>, Q<id>), so they stay the same across exports.
 */
export const linkIds = {
  intro: "intro",
  preliminary: "preliminary",
  /** The survey's total score, a calculated item at the end. */
  total: "score",
  category: (id: number) => `C${id}`,
  preliminaryQuestion: (id: number) => `P${id}`,
  question: (id: number) => `Q${id}`,
  files: (id: number) => `Q${id}.files`,
  when: (id: number) => `Q${id}.when`,
  hint: (id: number) => `Q${id}.hint`,
};
