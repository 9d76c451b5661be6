/** Who may do what with a survey (section 6). Pure, shared by the API and the pages. Free of zod. */

export interface SurveyTeams {
  /** Empty means: all users, all editors, all approvers (the defaults of section 6). */
  userTeamIds: readonly number[];
  editorTeamIds: readonly number[];
  approverTeamIds: readonly number[];
}

export interface Person {
  roles: readonly string[];
  teamIds: readonly number[];
}

function inTeams(allowed: readonly number[], mine: readonly number[]) {
  return allowed.length === 0 || allowed.some((id) => mine.includes(id));
}

export function isEditor(person: Person) {
  return person.roles.includes("SsiEditor");
}

export function isApprover(person: Person) {
  return person.roles.includes("SsiApprover");
}

export function canParticipate(person: Person, survey: SurveyTeams) {
  return inTeams(survey.userTeamIds, person.teamIds);
}

export function canEdit(person: Person, survey: SurveyTeams) {
  return isEditor(person) && inTeams(survey.editorTeamIds, person.teamIds);
}

export function canApprove(person: Person, survey: SurveyTeams) {
  return isApprover(person) && inTeams(survey.approverTeamIds, person.teamIds);
}

export interface SurveyRights {
  CanParticipate: boolean;
  CanEdit: boolean;
  CanApprove: boolean;
}

export function rightsOf(person: Person, survey: SurveyTeams): SurveyRights {
  return {
    CanParticipate: canParticipate(person, survey),
    CanEdit: canEdit(person, survey),
    CanApprove: canApprove(person, survey),
  };
}
