import zlib from "node:zlib";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { deflateBlock } from "~/server/services/statistics/deflate-blocks.server";
import { dialects } from "../support/databases";
import { addClosedCases } from "./closed-cases";
import { useStatisticsWorld, utf8 } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** responses.csv of a zip, checked against the CRC-32 and size its central directory records. */
function responsesOf(zip: Buffer): string {
  const data = Buffer.from(unzipSync(new Uint8Array(zip))["responses.csv"]);
  for (let at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0;) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.toString("utf8", at + 46, at + 46 + nameLength) === "responses.csv") {
      expect(zip.readUInt32LE(at + 16)).toBe(zlib.crc32(data));
      expect(zip.readUInt32LE(at + 24)).toBe(data.length);
    }
    at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 46);
  }
  return utf8.decode(data);
}

/**
 * The export of every counted case copies blocks of lines kept deflated while their cases are as they were
 * (docs/decisions/061-export-blocks.md). The oracle is the same export through a filter that keeps every case
 * (written line by line, no blocks): after every kind of change the two must be the same, byte for byte.
 */
describe.each(dialects)("the export's kept blocks on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  it("copies a kept block as it is, and writes its cases anew when one of them changes or goes", async () => {
    const f = fixture();
    const w = world();
    const added = await addClosedCases(w, f.survey, f.q.weight, "B", 2500);
    const exported = async (filters: object = {}) => {
      const res = await w.call("approver", "POST", `/statistics/${f.survey}/csv`, filters);
      expect(res.status).toBe(200);
      return responsesOf(Buffer.from(await res.arrayBuffer()));
    };
    // Every case, line by line: the oracle.
    const lineByLine = () => exported({ StartDateTime: "01.01.2000" });
    const blocks = () =>
      w.db
        .selectFrom("case_export_blocks")
        .select(["first_id", "last_id", "fingerprint"])
        .where("survey_id", "=", f.survey)
        .orderBy("first_id")
        .execute();

    const first = await exported();
    expect(first).toBe(await lineByLine());
    expect(first.split("\r\n").length).toBe(1 + 6 + 2500 + 1);
    const kept = await blocks();
    // 2,506 cases: a block of 2,000 and one of the rest, one after the other.
    expect(kept.length).toBe(2);
    expect(kept[1].first_id).toBe(kept[0].last_id + 1);
    expect(await exported()).toBe(first);

    // A kept block is what the export copies (its bytes changed here behind its back, its fingerprint left).
    const marked = await deflateBlock(new TextEncoder().encode("MARKED\r\n"));
    await w.db
      .updateTable("case_export_blocks")
      .set({ bytes: marked.bytes, crc: marked.crc, size: marked.size })
      .where("survey_id", "=", f.survey)
      .where("first_id", "=", kept[1].first_id)
      .execute();
    const copied = await exported();
    expect(copied.endsWith("MARKED\r\n")).toBe(true);
    expect(copied).not.toContain("B2499");

    // A changed answer: its block is written anew from the cases, the other one still copied.
    await w.db
      .updateTable("question_responses")
      .set({ numerical_response: 12.5 })
      .where("patient_data_id", "=", added[2100].id)
      .execute();
    const changed = await exported();
    expect(changed).toContain("\r\nB2100;");
    expect(changed).toContain(";12,5");
    expect(changed).not.toContain("MARKED");
    expect(changed).toBe(await lineByLine());

    // A case closed again at another time, and a case reopened: their own cells are the blocks' too.
    await w.db
      .updateTable("patient_data")
      .set({ closed_at: "2026-01-02T03:04:05.000Z" })
      .where("id", "=", added[5].id)
      .execute();
    await w.db.updateTable("patient_data").set({ state: "Open" }).where("id", "=", added[6].id).execute();
    const reclosed = await exported();
    expect(reclosed).toContain("2026-01-02T04:04:05+01:00");
    expect(reclosed).not.toContain("B0006");
    expect(reclosed).toBe(await lineByLine());

    // A case that goes (an erasure) takes the blocks that hold it along, in its own transaction.
    const holding = (await blocks()).filter((b) => b.first_id <= added[10].id && b.last_id >= added[10].id);
    expect(holding.length).toBe(1);
    await w.db.deleteFrom("patient_data").where("id", "=", added[10].id).execute();
    expect((await blocks()).filter((b) => b.first_id <= added[10].id && b.last_id >= added[10].id)).toEqual([]);
    const erased = await exported();
    expect(erased).not.toContain("B0010");
    expect(erased).toBe(await lineByLine());
    expect(await exported()).toBe(erased);
  });
});
