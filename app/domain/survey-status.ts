/** Survey status names and their codes (0 Pending, 1 Draft, 2 Active, 3 Closed, 4 Archived, 5 Ended). Free of zod. */
export const surveyStatuses = ["Pending", "Draft", "Active", "Closed", "Archived", "Ended"] as const;
export type SurveyStatus = (typeof surveyStatuses)[number];
export type SurveyStatusCode = 0 | 1 | 2 | 3 | 4 | 5;

export function statusName(code: number): SurveyStatus {
  return surveyStatuses[code] ?? "Draft";
}

export function statusCode(name: SurveyStatus): SurveyStatusCode {
  return surveyStatuses.indexOf(name) as SurveyStatusCode;
}

/** Draft is the only state in which a survey's content may change. */
export function isEditableStatus(status: SurveyStatus | "" | null | undefined): boolean {
  return !status || status === "Draft";
}

/**
 * The status people see. A published survey (stored Active) is Pending before its start date and Ended
 * after its end date; Closed is set by an approver; Archived and Draft are stored as such.
 * `today` is "YYYY-MM-DD".
 */
export function effectiveStatus(
  stored: SurveyStatus,
  startDate: string | null,
  endDate: string | null,
  today: string,
): SurveyStatus {
  if (stored !== "Active") return stored;
  if (startDate && today < startDate) return "Pending";
  if (endDate && today > endDate) return "Ended";
  return "Active";
}
