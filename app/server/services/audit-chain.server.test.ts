import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  auditRowHash,
  canonicalAuditRow,
  chainKeyOf,
  verifyChain,
  type AuditRowContent,
  type ChainedAuditRow,
  type ChainHead,
} from "./audit-chain.server";

const content: AuditRowContent = {
  at: "2026-11-25T01:00:00.000Z",
  actor_user_id: 7,
  actor_sub: "idp|erika",
  action: "response.save",
  entity: "question_response",
  entity_id: "42",
  survey_id: 3,
  patient_data_id: 9,
  before: null,
  after: '{"Text":"Übelkeit"}',
};

describe("the canonical serialization of an audit row", () => {
  it("is a JSON array in the fixed field order, then the previous hash", () => {
    expect(canonicalAuditRow(content, "ab12")).toBe(
      '["2026-11-25T01:00:00.000Z",7,"idp|erika","response.save","question_response","42",3,9,null,' +
        '"{\\"Text\\":\\"Übelkeit\\"}","ab12"]',
    );
  });

  it("does not depend on the order of the input's keys", () => {
    const reversed = Object.fromEntries(Object.entries(content).reverse()) as unknown as AuditRowContent;
    expect(canonicalAuditRow(reversed, null)).toBe(canonicalAuditRow(content, null));
    expect(auditRowHash(reversed, null)).toBe(auditRowHash(content, null));
  });

  it("writes absent values as null and the first row's previous hash as null", () => {
    const bare = {
      ...content,
      actor_user_id: null,
      actor_sub: null,
      entity_id: null,
      survey_id: null,
      patient_data_id: null,
      before: null,
      after: null,
    };
    expect(canonicalAuditRow(bare, null)).toBe(
      '["2026-11-25T01:00:00.000Z",null,null,"response.save","question_response",null,null,null,null,null,null]',
    );
    // undefined (a field left out) is the same as null
    const { after: _after, ...without } = bare;
    void _after;
    expect(canonicalAuditRow(without as AuditRowContent, null)).toBe(canonicalAuditRow(bare, null));
  });

  it("keeps non-ASCII characters literally and escapes only quotes, backslashes and control characters", () => {
    const text = { ...content, actor_sub: 'Müller "Ω" \\ 😀\n\t\u0001' };
    expect(canonicalAuditRow(text, null)).toContain('"Müller \\"Ω\\" \\\\ 😀\\n\\t\\u0001"');
  });

  it("hashes the UTF-8 bytes with SHA-256 as lowercase hex", () => {
    const expected = createHash("sha256")
      .update(Buffer.from(canonicalAuditRow(content, null), "utf8"))
      .digest("hex");
    expect(auditRowHash(content, null)).toBe(expected);
    expect(auditRowHash(content, null)).toMatch(/^[0-9a-f]{64}$/);
    expect(auditRowHash(content, "x")).not.toBe(auditRowHash(content, null));
    expect(auditRowHash({ ...content, after: '{"Text": "Übelkeit"}' }, null)).not.toBe(auditRowHash(content, null));
  });

  it("puts rows without a survey into the global chain", () => {
    expect(chainKeyOf(null)).toBe("global");
    expect(chainKeyOf(undefined)).toBe("global");
    expect(chainKeyOf(12)).toBe("12");
  });
});

/** A chain of n rows as the writer makes it, and its head. */
function chain(n: number): { rows: ChainedAuditRow[]; head: ChainHead } {
  const rows: ChainedAuditRow[] = [];
  let prev: string | null = null;
  for (let i = 1; i <= n; i++) {
    const row = { ...content, entity_id: String(i) };
    const hash = auditRowHash(row, prev);
    rows.push({ ...row, id: i * 10, hash, prev_hash: prev });
    prev = hash;
  }
  return { rows, head: { last_id: n * 10, last_hash: prev, count: n, anchor_hash: null, archived_count: 0 } };
}

function forged(prev: string | null, id: number): ChainedAuditRow {
  const row = { ...content, actor_sub: "forger" };
  return { ...row, id, hash: auditRowHash(row, prev), prev_hash: prev };
}

describe("verifyChain", () => {
  it("accepts a whole chain and an empty one", () => {
    const { rows, head } = chain(5);
    expect(verifyChain(rows, head)).toEqual({ ok: true, rows: 5 });
    expect(verifyChain([], null)).toEqual({ ok: true, rows: 0 });
  });

  it("names a changed row", () => {
    const { rows, head } = chain(5);
    rows[2] = { ...rows[2], after: "{}" };
    expect(verifyChain(rows, head)).toEqual({ ok: false, rows: 5, firstBad: { id: 30, kind: "changed" } });
  });

  it("names the row after a removed one, first or in the middle", () => {
    const { rows, head } = chain(5);
    expect(verifyChain([...rows.slice(0, 2), ...rows.slice(3)], head)).toMatchObject({
      firstBad: { id: 40, kind: "removed" },
    });
    expect(verifyChain(rows.slice(1), head)).toMatchObject({ firstBad: { id: 20, kind: "removed" } });
  });

  it("sees a removed last row, or a head that counts more rows, through the head", () => {
    const { rows, head } = chain(5);
    expect(verifyChain(rows.slice(0, 4), head)).toEqual({ ok: false, rows: 4, firstBad: { id: 50, kind: "removed" } });
    expect(verifyChain(rows, { ...head, count: 6 })).toMatchObject({ firstBad: { kind: "removed" } });
  });

  it("names a forged row: unlinked, linked in the middle, appended without the head, or without a head", () => {
    const { rows, head } = chain(4);
    const loose = forged("f".repeat(64), 25);
    expect(verifyChain([...rows.slice(0, 2), loose, ...rows.slice(2)], head)).toMatchObject({
      firstBad: { id: 25, kind: "inserted" },
    });
    const linked = forged(rows[1].hash, 25);
    expect(verifyChain([...rows.slice(0, 2), linked, ...rows.slice(2)], head)).toMatchObject({
      firstBad: { id: 25, kind: "inserted" },
    });
    const appended = forged(rows[3].hash, 99);
    expect(verifyChain([...rows, appended], head)).toMatchObject({ firstBad: { id: 99, kind: "inserted" } });
    expect(verifyChain([...rows, forged("0".repeat(64), 99)], head)).toMatchObject({
      firstBad: { id: 99, kind: "inserted" },
    });
    expect(verifyChain(rows, null)).toMatchObject({ firstBad: { id: 40, kind: "inserted" } });
    expect(verifyChain([...rows, { ...appended, hash: null }], head)).toMatchObject({
      firstBad: { id: 99, kind: "inserted" },
    });
  });

  it("starts an archived chain at its anchor and counts the archived rows", () => {
    const { rows, head } = chain(6);
    const archived = { ...head, anchor_hash: rows[1].hash, archived_count: 2 };
    expect(verifyChain(rows.slice(2), archived)).toEqual({ ok: true, rows: 4 });
    expect(verifyChain(rows.slice(3), archived)).toMatchObject({ firstBad: { id: 40, kind: "removed" } });
  });
});
