import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

describe("configuration", () => {
  it("defaults serve the embedded mode", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.embeddedIdp).toBe(true);
    expect(env.issuer).toBe("http://localhost:3001");
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.attachmentsDir).toBe("data/attachments");
    expect(env.CLINIC_TIME_ZONE).toBe("Europe/Berlin");
  });

  it("a bad value stops with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ PUBLIC_URL: "not a url" })).toThrow(/PUBLIC_URL/);
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
  });

  it("the clinic's time zone: a zone name as the tz database writes it", () => {
    expect(parseEnv({ CLINIC_TIME_ZONE: "America/New_York" }).CLINIC_TIME_ZONE).toBe("America/New_York");
    expect(parseEnv({ CLINIC_TIME_ZONE: "Asia/Kolkata" }).CLINIC_TIME_ZONE).toBe("Asia/Kolkata");
    expect(() => parseEnv({ CLINIC_TIME_ZONE: "Europe/Gotham" })).toThrow(
      /CLINIC_TIME_ZONE: must be an IANA time zone name such as Europe\/Berlin/,
    );
    expect(() => parseEnv({ CLINIC_TIME_ZONE: "europe/berlin" })).toThrow(
      /CLINIC_TIME_ZONE: must be written Europe\/Berlin/,
    );
    expect(() => parseEnv({ CLINIC_TIME_ZONE: "+01:00" })).toThrow(/CLINIC_TIME_ZONE: .*not an offset/);
  });

  it("an external provider needs its client secret", () => {
    expect(() => parseEnv({ OIDC_ISSUER: "https://id.example/realms/x" })).toThrow(/OIDC_CLIENT_SECRET/);
    const env = parseEnv({ OIDC_ISSUER: "https://id.example/realms/x/", OIDC_CLIENT_SECRET: "s" });
    expect(env.embeddedIdp).toBe(false);
    expect(env.issuer).toBe("https://id.example/realms/x");
  });

  it("PUBLIC_URL sets the address used in absolute links", () => {
    expect(parseEnv({ PUBLIC_URL: "https://surveys.example/" }).publicUrl).toBe("https://surveys.example");
  });

  it("the attachment store: the folder with SQLite, the database with PostgreSQL, or an object store", () => {
    expect(parseEnv({}).attachmentStore).toBe("file");
    expect(parseEnv({ DATABASE_URL: "postgres://db/survey" }).attachmentStore).toBe("database");
    expect(parseEnv({ DATABASE_URL: "postgres://db/survey", ATTACHMENT_STORE: "file" }).attachmentStore).toBe("file");
    expect(() => parseEnv({ ATTACHMENT_STORE: "ftp" })).toThrow(/ATTACHMENT_STORE/);
    expect(() => parseEnv({ ATTACHMENT_STORE: "s3" })).toThrow(/S3_BUCKET: is required when ATTACHMENT_STORE is s3/);
    expect(() => parseEnv({ ATTACHMENT_STORE: "s3", S3_BUCKET: "files", S3_ACCESS_KEY_ID: "k" })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(() => parseEnv({ S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT/);
    const env = parseEnv({
      ATTACHMENT_STORE: "s3",
      S3_BUCKET: "files",
      S3_ENDPOINT: "http://minio:9000",
      S3_FORCE_PATH_STYLE: "true",
      S3_PREFIX: "survey/",
    });
    expect(env.s3).toEqual({
      bucket: "files",
      region: "us-east-1",
      endpoint: "http://minio:9000",
      forcePathStyle: true,
      prefix: "survey/",
      credentials: undefined,
    });
  });
});
