/**
 * Who answered a case (docs/decisions/057-patient-links.md): staff (the default), the patient through a
 * one-time link, or the patient on a staff member's device handed over to them. Client-safe.
 */
export type Respondent =
  { kind: "staff" } | { kind: "link"; linkId: number } | { kind: "handover"; staffUserId: number; staffName: string };

export type RespondentKind = Respondent["kind"];
export const respondentKinds = ["staff", "link", "handover"] as const satisfies readonly RespondentKind[];

/** The columns of a case (patient_data) that say who answered it. */
export interface RespondentColumns {
  respondent: "link" | "handover" | null;
  respondent_link_id: number | null;
  respondent_user_id: number | null;
}

/** Who answered a case, from its columns; the hand-over's staff member named by `staffName`. */
export function respondentOf(row: RespondentColumns, staffName = ""): Respondent {
  if (row.respondent === "link" && row.respondent_link_id !== null) {
    return { kind: "link", linkId: row.respondent_link_id };
  }
  if (row.respondent === "handover" && row.respondent_user_id !== null) {
    return { kind: "handover", staffUserId: row.respondent_user_id, staffName };
  }
  return { kind: "staff" };
}

/** The columns a case is written with for a respondent. */
export function respondentColumns(r: Respondent): RespondentColumns {
  switch (r.kind) {
    case "link":
      return { respondent: "link", respondent_link_id: r.linkId, respondent_user_id: null };
    case "handover":
      return { respondent: "handover", respondent_link_id: null, respondent_user_id: r.staffUserId };
    case "staff":
      return { respondent: null, respondent_link_id: null, respondent_user_id: null };
  }
}

/**
 * The audit trail's actor "sub" of a patient's write: a link's caller has no account, so its rows name no
 * user and carry "link:<id>" instead (a hand-over's rows name the staff member's account and "handover:…").
 */
export function respondentActorSub(r: Respondent): string | null {
  if (r.kind === "link") return `link:${r.linkId}`;
  if (r.kind === "handover") return `handover:${r.staffUserId}`;
  return null;
}

/** The respondent an audit row's actor names, or null for a staff member's own write. */
export function respondentOfActor(sub: string | null, staffName = ""): Respondent | null {
  const link = /^link:(\d+)$/.exec(sub ?? "");
  if (link) return { kind: "link", linkId: Number(link[1]) };
  const handover = /^handover:(\d+)$/.exec(sub ?? "");
  if (handover) return { kind: "handover", staffUserId: Number(handover[1]), staffName };
  return null;
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** The respondent in words of the page's language: "Patient:in (Link 12)", "the patient (link 12)". */
export function respondentName(r: Respondent, t: T): string {
  switch (r.kind) {
    case "link":
      return t("respondent.link", { id: r.linkId });
    case "handover":
      return t("respondent.handover", { name: r.staffName });
    case "staff":
      return t("respondent.staff");
  }
}
