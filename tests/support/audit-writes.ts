import { writeTransaction } from "~/server/db/group-commit.server";
import type { DB } from "~/server/db/types.server";
import { audit, auditAll, type Actor } from "~/server/services/audit.server";

/** The survey whose chain the writes below grow (beside the global chain). */
export const WRITTEN_SURVEY = 301;

const actor: Actor = { surveyUserDataId: 1, sub: "idp|erika" };

/**
 * Audited writes as a copy of the server makes them, back to back from `requests` requests at once until
 * stopped: single rows to the survey's chain and to the global one, and now and then one statement over
 * both. `written` hears of each write once it has committed. Resolves to how many writes were made.
 */
export function keepWriting(
  db: DB,
  stopped: () => boolean,
  opts: { requests?: number; written?: (made: number) => void } = {},
): Promise<number> {
  let made = 0;
  const request = async (r: number) => {
    for (let i = 0; !stopped(); i++) {
      const after = { r, i, Text: "Übelkeit" };
      await writeTransaction(db, (trx) =>
        i % 5 === 4
          ? auditAll(trx, actor, [
              { action: "bulk", entity: "survey", surveyId: WRITTEN_SURVEY, after },
              { action: "bulk", entity: "user", after },
              { action: "bulk", entity: "survey", surveyId: WRITTEN_SURVEY, after: { ...after, second: true } },
            ])
          : audit(trx, actor, {
              action: "response.save",
              entity: "question_response",
              surveyId: i % 3 === 2 ? null : WRITTEN_SURVEY,
              after,
            }),
      );
      made += 1;
      opts.written?.(made);
    }
  };
  return Promise.all(Array.from({ length: opts.requests ?? 3 }, (_, r) => request(r))).then(() => made);
}
