import type { AttachmentStore } from "~/server/storage/attachments.server";
import type { Culture, Identity, SurveyAccessRole } from "~/domain/user";
import type { TokenVerifier } from "~/server/auth/discovery.server";
import type { Refresh } from "~/server/auth/renewal.server";
import type { SessionStores } from "~/server/auth/session.server";
import type { DB } from "~/server/db/types.server";
import type { Env } from "~/server/env.server";
import type { HandoverScope } from "~/domain/handover";
import type { LinkScope } from "~/server/services/links/scope.server";

export interface ApiDeps {
  db: DB;
  env: Env;
  verifyToken: TokenVerifier;
  sessions: SessionStores;
  /** Renews a cookie session's tokens with its refresh token (the identity provider's token endpoint). */
  refresh: Refresh;
  /** Where the bytes of uploaded files live (ATTACHMENT_STORE). */
  attachments: AttachmentStore;
}

/** The signed-in person making an API call, with what the product knows of them. */
export interface Caller {
  identity: Identity;
  surveyUserDataId: number;
  roles: SurveyAccessRole[];
  teamIds: number[];
  teams: { Id: number; Name: string }[];
  culture: Culture | null;
  /** A patient's one-time link (under /l/api): no account, one case (docs/decisions/057-patient-links.md). */
  link?: LinkScope;
  /** The staff member's session handed to the patient: only this case (docs/decisions/058-hand-over.md). */
  handover?: HandoverScope;
}
