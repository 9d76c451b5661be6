import { translationsApi } from "~/contracts/translations";
import { putTranslations } from "~/server/services/translations/translations.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const translationRoutes = [
  route(translationsApi.put, ({ deps, caller, params, body }) =>
    putTranslations(deps.db, surveyCaller(caller), params.id, params.language, body),
  ),
];
