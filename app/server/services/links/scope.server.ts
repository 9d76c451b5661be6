/** What a patient's link lets its caller reach: one case of one survey (docs/decisions/057-patient-links.md). */
export interface LinkScope {
  linkId: number;
  surveyId: number;
  patientDataId: number;
  patientId: string;
  /** The language the link opens in; null: the survey's source language. */
  language: string | null;
  expiresAt: string;
}
