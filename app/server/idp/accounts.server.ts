import { timingSafeEqual, createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

export type IdpLocale = "de-DE" | "en-US";

export interface DemoAccount {
  username: string;
  password: string;
  fullName: string;
  email: string;
  institute: string;
  roles: string[];
  teams: string[];
  hasAcceptedTos: boolean;
  locale: IdpLocale;
}

const CARDIOLOGY = "Universitätsklinikum Musterstadt, Kardiologie";
const ONCOLOGY = "Universitätsklinikum Musterstadt, Onkologie";

function account(a: DemoAccount): Readonly<DemoAccount> {
  return Object.freeze({ ...a, roles: Object.freeze([...a.roles]), teams: Object.freeze([...a.teams]) }) as DemoAccount;
}

/**
 * The people who can sign in to the embedded provider. The passwords are documented in the
 * README; the provider only exists for a clinic's first steps and for tests.
 */
export const demoAccounts: ReadonlyArray<Readonly<DemoAccount>> = Object.freeze([
  account({
    username: "editor",
    password: "editor123",
    fullName: "Dr. Anna Schneider",
    email: "anna.schneider@klinikum-musterstadt.example",
    institute: CARDIOLOGY,
    roles: ["SsiUser", "SsiEditor"],
    teams: ["Studienzentrum"],
    hasAcceptedTos: true,
    locale: "de-DE",
  }),
  account({
    username: "approver",
    password: "approver123",
    fullName: "Prof. Dr. Markus Weber",
    email: "markus.weber@klinikum-musterstadt.example",
    institute: CARDIOLOGY,
    roles: ["SsiUser", "SsiApprover"],
    teams: ["Studienzentrum"],
    hasAcceptedTos: true,
    locale: "de-DE",
  }),
  account({
    username: "admin",
    password: "admin123",
    fullName: "Julia Hoffmann",
    email: "julia.hoffmann@klinikum-musterstadt.example",
    institute: CARDIOLOGY,
    roles: ["SsiUser", "SsiEditor", "SsiApprover"],
    teams: ["Studienzentrum", "Station 3A"],
    hasAcceptedTos: true,
    locale: "de-DE",
  }),
  account({
    username: "user",
    password: "user123",
    fullName: "Thomas Becker",
    email: "thomas.becker@klinikum-musterstadt.example",
    institute: CARDIOLOGY,
    roles: ["SsiUser"],
    teams: ["Station 3A"],
    hasAcceptedTos: true,
    locale: "de-DE",
  }),
  account({
    username: "newcomer",
    password: "newcomer123",
    fullName: "Laura Fischer",
    email: "laura.fischer@klinikum-musterstadt.example",
    institute: ONCOLOGY,
    roles: ["SsiUser"],
    teams: ["Ambulanz Nord"],
    hasAcceptedTos: false,
    locale: "en-US",
  }),
  account({
    username: "outsider",
    password: "outsider123",
    fullName: "Stefan Wagner",
    email: "stefan.wagner@klinikum-musterstadt.example",
    institute: "Universitätsklinikum Musterstadt, Verwaltung",
    roles: [],
    teams: [],
    hasAcceptedTos: true,
    locale: "de-DE",
  }),
]);

export function findAccount(accountId: string): Readonly<DemoAccount> | undefined {
  return demoAccounts.find((a) => a.username === accountId);
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** The account for these credentials, or undefined. Compares in constant time. */
export function verifyCredentials(username: string, password: string): Readonly<DemoAccount> | undefined {
  const candidate = findAccount(username.trim().toLowerCase());
  const expected = candidate?.password ?? "\u0000no-account";
  const matches = timingSafeEqual(digest(password), digest(expected));
  return candidate && matches ? candidate : undefined;
}

/**
 * Which accounts accepted the terms of service, kept in a small JSON file so that a restart
 * remembers it. Writes go to a temporary file first and are then renamed into place.
 */
export class TermsStore {
  private accepted = new Map<string, string>();
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(dataDir: string): Promise<TermsStore> {
    const store = new TermsStore(path.join(dataDir, "idp-terms.json"));
    try {
      const raw = JSON.parse(await readFile(store.file, "utf8")) as { accepted?: Record<string, unknown> };
      for (const [accountId, at] of Object.entries(raw.accepted ?? {})) {
        if (typeof at === "string") store.accepted.set(accountId, at);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    return store;
  }

  hasAccepted(accountId: string): boolean {
    if (this.accepted.has(accountId)) return true;
    return findAccount(accountId)?.hasAcceptedTos ?? false;
  }

  async accept(accountId: string, at = new Date()): Promise<void> {
    if (!this.accepted.has(accountId)) this.accepted.set(accountId, at.toISOString());
    const snapshot = JSON.stringify({ accepted: Object.fromEntries(this.accepted) }, null, 2);
    const write = async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, snapshot, { mode: 0o600 });
      await rename(tmp, this.file);
    };
    this.writing = this.writing.then(write, write);
    await this.writing;
  }
}

/** The claims that describe a person, the same in the ID token, userinfo and access tokens. */
export function personClaims(a: Readonly<DemoAccount>, tosAccepted: boolean) {
  const [givenName, ...rest] = a.fullName.replace(/^(Prof\. )?(Dr\. )?/, "").split(" ");
  return {
    name: a.fullName,
    given_name: givenName,
    family_name: rest.join(" "),
    preferred_username: a.username,
    email: a.email,
    institute: a.institute,
    roles: [...a.roles],
    teams: [...a.teams],
    tos_accepted: tosAccepted,
    locale: a.locale,
  };
}

/** The claim names a scope releases. */
export const scopeClaims = {
  openid: ["sub"],
  profile: [
    "name",
    "given_name",
    "family_name",
    "preferred_username",
    "locale",
    "institute",
    "roles",
    "teams",
    "tos_accepted",
  ],
  email: ["email"],
} as const;
