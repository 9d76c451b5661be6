import path from "node:path";
import { z } from "zod";
import type { S3Settings } from "~/server/storage/s3-store.server";
import { timeZoneProblem } from "~/server/time-zone.server";

/**
 * Every setting of the server, read from the environment once and validated.
 * Nothing else in the code base reads process.env.
 */
const boolFlag = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    PUBLIC_URL: z.url().optional(),
    /** Off unless set: without a proxy in front, a client could claim any address or scheme in these headers. */
    TRUST_PROXY: boolFlag.default(false),
    /** Names this copy in every log line; defaults to the host name and process id. */
    INSTANCE_ID: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1 to 64 letters, digits, dots, dashes or underscores")
      .optional(),
    SESSION_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** Signs the short-lived attachment download links; every copy must share it. */
    ATTACHMENT_LINK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * Keys the hash of an erased case's patient id in its tombstone (docs/decisions/042-retention-and-erasure.md);
     * every copy must share it, and it must outlive the backups. Else generated into DATA_DIR.
     */
    ERASURE_KEY: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * Derives each person's key for their offline work on devices (docs/decisions/048-shared-device.md);
     * every copy must share it, and it must not change while devices hold unsynced work (they could not
     * read it any more). Else generated into DATA_DIR.
     */
    OFFLINE_KEY_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).default("survey-tool"),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_API_SCOPE: z.string().min(1).default("survey_api"),
    OIDC_AUDIENCE: z.string().min(1).default("survey-api"),
    OIDC_ACCESS_ROLE: z.string().min(1).default("SsiUser"),
    OIDC_TERMS_URL: z.url().optional(),
    IDP_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
    /** Lifetime of the access tokens the embedded provider issues. */
    IDP_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(300),
    SURVEY_API_URL: z.url().optional(),
    ATTACHMENTS_DIR: z.string().min(1).optional(),
    /** Where the bytes of uploaded files live (docs/decisions/021); database by default with PostgreSQL. */
    ATTACHMENT_STORE: z.enum(["file", "database", "s3"]).optional(),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// address" }).optional(),
    S3_FORCE_PATH_STYLE: boolFlag.default(false),
    S3_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9._/-]{0,200}$/, "must be letters, digits, dots, dashes, underscores and slashes")
      .default(""),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** After SIGTERM, readiness says "not ready" this long before the server stops taking connections. */
    SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(120).default(0),
    LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
    /** Turns GET /api/metrics on for a scraper that sends it as a bearer token; unset, the endpoint is off. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    DEMO_DATA: boolFlag.default(true),
    /** Score flags (docs/decisions/011-statistics.md): red below, yellow below, gray with fewer answering cases. */
    SCORE_RED_BELOW: z.coerce.number().min(0).max(100).default(50),
    SCORE_YELLOW_BELOW: z.coerce.number().min(0).max(100).default(75),
    SCORE_MIN_RESPONSES: z.coerce.number().int().min(1).default(5),
    /**
     * The clinic's time zone: typed date-times are its wall-clock time, and the exports write them (and the
     * cases' times) in it with their offset from UTC (docs/decisions/053-clinic-time-zone.md).
     */
    CLINIC_TIME_ZONE: z
      .string()
      .default("Europe/Berlin")
      .superRefine((name, ctx) => {
        const problem = timeZoneProblem(name);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    /** The client-specific image on the start page; a path on this server (the page's CSP allows only 'self'). */
    CLIENT_IMAGE_URL: z
      .string()
      .regex(/^\/(?![/\\])\S*$/, "must be a path on this server, starting with /")
      .default("/client-image.svg"),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_CLIENT_SECRET"],
        message: "is required when OIDC_ISSUER is set",
      });
    }
    if (env.ATTACHMENT_STORE === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when ATTACHMENT_STORE is s3" });
    }
    if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: "custom",
        path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message: "is required with the other of S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
      });
    }
    if (env.SCORE_RED_BELOW > env.SCORE_YELLOW_BELOW) {
      ctx.addIssue({ code: "custom", path: ["SCORE_RED_BELOW"], message: "must not be above SCORE_YELLOW_BELOW" });
    }
  });

export type Env = z.infer<typeof schema> & {
  /** The base URL people use to reach the app (PUBLIC_URL, or http://localhost:PORT). */
  publicUrl: string;
  /** True when the embedded OpenID provider serves sign-in (no OIDC_ISSUER). */
  embeddedIdp: boolean;
  /** The OpenID issuer the app trusts. */
  issuer: string;
  attachmentsDir: string;
  /** ATTACHMENT_STORE, or its default: database with PostgreSQL, file with SQLite. */
  attachmentStore: "file" | "database" | "s3";
  /** The object store's settings when S3_BUCKET is set (the store, or the source or target of a move). */
  s3?: S3Settings;
};

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(environment)"}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const embeddedIdp = !env.OIDC_ISSUER;
  const issuer = (env.OIDC_ISSUER ?? `http://localhost:${env.IDP_PORT}`).replace(/\/$/, "");
  return {
    ...env,
    publicUrl,
    embeddedIdp,
    issuer,
    attachmentsDir: env.ATTACHMENTS_DIR ?? path.join(env.DATA_DIR, "attachments"),
    attachmentStore: env.ATTACHMENT_STORE ?? (env.DATABASE_URL ? "database" : "file"),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
          prefix: env.S3_PREFIX,
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : undefined,
  };
}

let cached: Env | undefined;

/** The validated configuration of this process; throws EnvError naming each bad variable. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** For tests: replace the configuration of this process. */
export function setEnvForTests(env: Env | undefined) {
  cached = env;
}
