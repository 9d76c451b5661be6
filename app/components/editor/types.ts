import type { Survey } from "~/domain/survey";
import type { Tag, Team } from "~/domain/user";

/** What every editor tab gets. `editable`: an editor of the survey's teams, and the survey in Draft. */
export interface EditorTabProps {
  survey: Survey;
  editable: boolean;
  teams: Team[];
  tags: Tag[];
}
