import {
  accessRolesOf,
  defaultCulture,
  isCulture,
  type Culture,
  type Identity,
  type Tag,
  type Team,
  type User,
} from "~/domain/user";
import type { DB } from "~/server/db/types.server";
import { audit } from "./audit.server";

export interface UserRecord {
  id: number;
  culture: Culture | null;
  teamIds: number[];
  teams: { Id: number; Name: string }[];
}

function sameList(a: string[], b: string[]) {
  return a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
}

/**
 * Makes the product's record of a person match what the identity provider says (name, institute,
 * roles, teams, terms flag). Teams named in the claims that the product does not know yet are added.
 * Cheap when nothing changed: one read of the user and their teams.
 */
export async function syncUser(db: DB, identity: Identity, opts: { login?: boolean } = {}): Promise<UserRecord> {
  const now = new Date().toISOString();
  const existing = await db.selectFrom("users").selectAll().where("sub", "=", identity.sub).executeTakeFirst();
  const current = existing ? await teamsOf(db, existing.id) : [];
  const unchanged =
    existing &&
    existing.full_name === identity.fullName &&
    existing.institute === identity.institute &&
    (existing.email ?? undefined) === identity.email &&
    existing.has_accepted_tos === (identity.hasAcceptedTos ? 1 : 0) &&
    sameList(JSON.parse(existing.roles) as string[], identity.roles) &&
    sameList(
      current.map((t) => t.Name),
      identity.teams,
    );
  if (existing && unchanged && !opts.login) {
    return {
      id: existing.id,
      culture: isCulture(existing.culture) ? existing.culture : null,
      teamIds: current.map((t) => t.Id),
      teams: current,
    };
  }

  return db.transaction().execute(async (trx) => {
    const values = {
      full_name: identity.fullName,
      institute: identity.institute,
      email: identity.email ?? null,
      has_accepted_tos: identity.hasAcceptedTos ? 1 : 0,
      roles: JSON.stringify(identity.roles),
      updated_at: now,
      ...(opts.login ? { last_login_at: now } : {}),
    };
    // A person's first calls come in parallel: each may find no record. One inserts; the others, which
    // find the insert done (PostgreSQL waits for it to commit), update the record it made.
    const inserted = existing
      ? undefined
      : await trx
          .insertInto("users")
          .values({ sub: identity.sub, created_at: now, culture: null, ...values })
          .onConflict((oc) => oc.column("sub").doNothing())
          .returning("id")
          .executeTakeFirst();
    const record =
      existing ??
      (inserted
        ? undefined
        : await trx.selectFrom("users").selectAll().where("sub", "=", identity.sub).executeTakeFirstOrThrow());
    const id = inserted?.id ?? record!.id;
    if (record) {
      await trx.updateTable("users").set(values).where("id", "=", id).execute();
    } else {
      await audit(
        trx,
        { surveyUserDataId: id, sub: identity.sub },
        { action: "user.create", entity: "user", entityId: id, after: values },
      );
    }
    if (identity.teams.length > 0) {
      await trx
        .insertInto("teams")
        .values(identity.teams.map((name) => ({ name, disabled: 0 })))
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
    }
    const teams =
      identity.teams.length > 0
        ? await trx.selectFrom("teams").select(["id", "name"]).where("name", "in", identity.teams).execute()
        : [];
    await trx.deleteFrom("user_teams").where("user_id", "=", id).execute();
    if (teams.length > 0) {
      await trx
        .insertInto("user_teams")
        .values(teams.map((t) => ({ user_id: id, team_id: t.id })))
        .onConflict((oc) => oc.columns(["user_id", "team_id"]).doNothing())
        .execute();
    }
    const culture = record && isCulture(record.culture) ? record.culture : null;
    const list = teams.map((t) => ({ Id: t.id, Name: t.name }));
    return { id, culture, teamIds: list.map((t) => t.Id), teams: list };
  });
}

async function teamsOf(db: DB, surveyUserDataId: number) {
  const rows = await db
    .selectFrom("user_teams")
    .innerJoin("teams", "teams.id", "user_teams.team_id")
    .select(["teams.id", "teams.name"])
    .where("user_teams.user_id", "=", surveyUserDataId)
    .orderBy("teams.name")
    .execute();
  return rows.map((r) => ({ Id: r.id, Name: r.name }));
}

export function toUserDto(identity: Identity, record: UserRecord): User {
  return {
    FullName: identity.fullName,
    Institute: identity.institute,
    UserId: identity.sub,
    SurveyUserDataId: record.id,
    Culture: record.culture ?? defaultCulture,
    HasAcceptedTos: identity.hasAcceptedTos,
    SurveyAccessRoles: accessRolesOf(identity.roles),
    Teams: record.teams,
  };
}

export async function setCulture(
  db: DB,
  actor: { surveyUserDataId: number; sub: string },
  culture: Culture,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("users")
      .select("culture")
      .where("id", "=", actor.surveyUserDataId)
      .executeTakeFirst();
    if (before?.culture === culture) return;
    await trx
      .updateTable("users")
      .set({ culture, updated_at: new Date().toISOString() })
      .where("id", "=", actor.surveyUserDataId)
      .execute();
    await audit(trx, actor, {
      action: "user.culture",
      entity: "user",
      entityId: actor.surveyUserDataId,
      before: { Culture: before?.culture ?? null },
      after: { Culture: culture },
    });
  });
}

export async function listTeams(db: DB): Promise<Team[]> {
  const rows = await db.selectFrom("teams").select(["id", "name", "disabled"]).orderBy("name").execute();
  return rows.map((r) => ({ Id: r.id, Name: r.name, Disabled: r.disabled === 1 }));
}

export async function listTags(db: DB): Promise<Tag[]> {
  const rows = await db.selectFrom("tags").select(["id", "name"]).orderBy("name").execute();
  return rows.map((r) => ({ Id: r.id, Name: r.name }));
}
