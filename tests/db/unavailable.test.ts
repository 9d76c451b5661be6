import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "~/server/db/db.server";

/** Which database errors the API answers 503 (the database is away) rather than 500 or 4xx. */

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises refused and dropped connections, PostgreSQL shutdowns and SQLite locks", () => {
    for (const error of [
      withCode("ECONNREFUSED"),
      withCode("ECONNRESET"),
      withCode("08006"),
      withCode("57P01"),
      withCode("53300"),
      withCode("55000", 'database "x" is not currently accepting connections'),
      withCode("SQLITE_BUSY"),
      withCode("SQLITE_CANTOPEN"),
      withCode("SQLITE_IOERR_READ"),
      new Error("Connection terminated unexpectedly"),
      // A pooled client whose connection dropped between two statements of a transaction.
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("Client was closed and is not queryable"),
    ]) {
      expect(isDatabaseUnavailable(error), String((error as { code?: string }).code ?? error.message)).toBe(true);
    }
  });

  it("leaves constraint and syntax errors to the other handlers", () => {
    for (const error of [
      withCode("23505"),
      withCode("42601"),
      withCode("55000", "some other prerequisite"),
      withCode("SQLITE_CONSTRAINT_UNIQUE"),
      new Error("boom"),
      null,
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
