import type { DB } from "~/server/db/db.server";
import type { SurveyCaller } from "~/server/services/surveys.server";

/** The editor as the statistics service sees them, read from the database itself. */
export async function editorOf(db: DB): Promise<SurveyCaller> {
  const user = await db.selectFrom("users").selectAll().execute();
  const editor = user.find(
    (u) => JSON.parse(u.roles).includes("SsiEditor") && !JSON.parse(u.roles).includes("SsiApprover"),
  );
  if (!editor) throw new Error("no editor in the database");
  const teams = await db.selectFrom("user_teams").select("team_id").where("user_id", "=", editor.id).execute();
  return {
    surveyUserDataId: editor.id,
    sub: editor.sub,
    roles: ["SsiEditor"],
    teamIds: teams.map((t) => t.team_id),
    culture: editor.culture,
  };
}
