import type { IdpLocale } from "./accounts.server";

/**
 * The texts of the provider's own pages. They belong to the sign-in service, not to the app,
 * so they live here rather than in the app's locale files.
 */
const de = {
  htmlLang: "de",
  productName: "Anmeldedienst",
  loginTitle: "Anmelden",
  loginIntro: "Melden Sie sich mit Ihrem Benutzerkonto an, um fortzufahren.",
  username: "Benutzername",
  password: "Passwort",
  submitLogin: "Anmelden",
  wrongCredentials: "Benutzername oder Passwort ist falsch. Bitte versuchen Sie es erneut.",
  missingCredentials: "Bitte geben Sie Benutzername und Passwort ein.",
  reauthenticateSamePerson:
    "Bitte bestätigen Sie mit dem Passwort des angemeldeten Kontos. Um das Konto zu wechseln, melden Sie sich zuerst ab.",
  signTitle: "Elektronische Unterschrift",
  signIntro: "Sie unterschreiben den Fall {patient} der Umfrage „{survey}“ elektronisch, mit der Bedeutung: {meaning}",
  signPassword:
    "Geben Sie zum Unterschreiben Ihr Passwort ein. Die Unterschrift gilt für die Antworten, wie sie jetzt gespeichert sind; danach ist der Fall abgeschlossen.",
  signSubmit: "Mit Passwort unterschreiben",
  signMeaning: { author: "Verfasst", reviewer: "Geprüft", approval: "Freigegeben" },
  reauthenticateAs: "Angemeldet als",
  demoTitle: "Demo-Zugänge",
  demoIntro: "Diese Konten sind nur für Erprobung und Vorführung gedacht.",
  demoUser: "Benutzer",
  demoPassword: "Passwort",
  demoRoles: "Rollen",
  demoNoRoles: "keine (kein Zugang zum Werkzeug)",
  demoTosPending: "Nutzungsbedingungen noch nicht akzeptiert",
  sessionExpiredTitle: "Anmeldung abgelaufen",
  sessionExpired:
    "Diese Anmeldung ist abgelaufen oder wurde bereits abgeschlossen. Bitte starten Sie die Anmeldung erneut aus der Anwendung.",
  backToApp: "Zur Anwendung",
  termsTitle: "Nutzungsbedingungen",
  termsIntro: "Bitte lesen und akzeptieren Sie die Nutzungsbedingungen, bevor Sie fortfahren.",
  termsBody: [
    "Das Werkzeug dient der Erfassung klinischer Fragebögen. Verwenden Sie es nur für Ihre dienstlichen Aufgaben.",
    "Patientendaten sind vertraulich. Geben Sie sie nicht an Unbefugte weiter und erfassen Sie nur, was für die Studie erforderlich ist.",
    "Ihr Zugang ist persönlich. Geben Sie Ihr Passwort nicht weiter und melden Sie sich nach der Arbeit ab.",
    "Änderungen an Fragebögen und Antworten werden mit Ihrem Namen protokolliert.",
  ],
  accept: "Akzeptieren",
  alreadyAccepted: "Sie haben die Nutzungsbedingungen bereits akzeptiert.",
  continue: "Weiter",
  acceptedTitle: "Nutzungsbedingungen akzeptiert",
  accepted: "Vielen Dank. Sie haben die Nutzungsbedingungen akzeptiert. Sie können dieses Fenster schließen.",
  termsNeedsLoginTitle: "Anmeldung erforderlich",
  termsNeedsLogin: "Bitte melden Sie sich zuerst über die Anwendung an, um die Nutzungsbedingungen zu akzeptieren.",
  badReturnToTitle: "Ungültige Rücksprungadresse",
  badReturnTo: "Die angegebene Rücksprungadresse gehört nicht zu einer zugelassenen Anwendung.",
  badRequest: "Die Anfrage ist ungültig. Bitte laden Sie die Seite neu.",
  logoutTitle: "Abmelden",
  loggingOut: "Sie werden abgemeldet …",
  logoutButton: "Abmelden",
  loggedOutTitle: "Abgemeldet",
  loggedOut: "Sie wurden erfolgreich abgemeldet.",
  errorTitle: "Ein Fehler ist aufgetreten",
  errorIntro: "Die Anfrage konnte nicht verarbeitet werden.",
};

type Dictionary = typeof de;

const en: Dictionary = {
  htmlLang: "en",
  productName: "Sign-in service",
  loginTitle: "Sign in",
  loginIntro: "Sign in with your user account to continue.",
  username: "Username",
  password: "Password",
  submitLogin: "Sign in",
  wrongCredentials: "The username or password is incorrect. Please try again.",
  missingCredentials: "Please enter your username and password.",
  reauthenticateSamePerson:
    "Please confirm with the password of the account that is signed in. To switch accounts, sign out first.",
  signTitle: "Electronic signature",
  signIntro: "You are signing case {patient} of the survey “{survey}” electronically, meaning: {meaning}",
  signPassword:
    "Enter your password to sign. The signature applies to the answers as they are saved now; the case is then closed.",
  signSubmit: "Sign with password",
  signMeaning: { author: "Authored", reviewer: "Reviewed", approval: "Approved" },
  reauthenticateAs: "Signed in as",
  demoTitle: "Demo accounts",
  demoIntro: "These accounts are meant for trying out and demonstrating only.",
  demoUser: "User",
  demoPassword: "Password",
  demoRoles: "Roles",
  demoNoRoles: "none (no access to the tool)",
  demoTosPending: "terms of service not yet accepted",
  sessionExpiredTitle: "Sign-in expired",
  sessionExpired:
    "This sign-in has expired or was already completed. Please start signing in again from the application.",
  backToApp: "Go to the application",
  termsTitle: "Terms of service",
  termsIntro: "Please read and accept the terms of service before you continue.",
  termsBody: [
    "The tool is for recording clinical questionnaires. Use it only for your work duties.",
    "Patient data is confidential. Do not share it with unauthorized persons and record only what the study requires.",
    "Your account is personal. Do not share your password and sign out when you finish your work.",
    "Changes to questionnaires and answers are logged with your name.",
  ],
  accept: "Accept",
  alreadyAccepted: "You have already accepted the terms of service.",
  continue: "Continue",
  acceptedTitle: "Terms of service accepted",
  accepted: "Thank you. You have accepted the terms of service. You may close this window.",
  termsNeedsLoginTitle: "Sign-in required",
  termsNeedsLogin: "Please sign in through the application first to accept the terms of service.",
  badReturnToTitle: "Return address not allowed",
  badReturnTo: "The given return address does not belong to an allowed application.",
  badRequest: "The request is invalid. Please reload the page.",
  logoutTitle: "Sign out",
  loggingOut: "Signing you out …",
  logoutButton: "Sign out",
  loggedOutTitle: "Signed out",
  loggedOut: "You have been signed out.",
  errorTitle: "Something went wrong",
  errorIntro: "The request could not be processed.",
};

export type Texts = Dictionary;

const dictionaries: Record<IdpLocale, Dictionary> = { "de-DE": de, "en-US": en };

export const DEFAULT_LOCALE: IdpLocale = "de-DE";
export const SUPPORTED_LOCALES: readonly IdpLocale[] = ["de-DE", "en-US"];

function match(tag: string): IdpLocale | undefined {
  const lower = tag.trim().toLowerCase();
  if (!lower || lower === "*") return undefined;
  if (lower === "de" || lower.startsWith("de-")) return "de-DE";
  if (lower === "en" || lower.startsWith("en-")) return "en-US";
  return undefined;
}

/**
 * The page language: the first supported tag of `ui_locales` (space separated, in order of
 * preference), else the best of Accept-Language (by q value), else German.
 */
export function pickLocale(uiLocales?: unknown, acceptLanguage?: string | null): IdpLocale {
  if (typeof uiLocales === "string") {
    for (const tag of uiLocales.split(/\s+/)) {
      const found = match(tag);
      if (found) return found;
    }
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(",")
      .map((part, index) => {
        const [tag, ...params] = part.split(";");
        const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
        const quality = q ? Number.parseFloat(q.slice(2)) : 1;
        return { tag: tag ?? "", quality: Number.isFinite(quality) ? quality : 0, index };
      })
      .filter((r) => r.quality > 0)
      .sort((a, b) => b.quality - a.quality || a.index - b.index);
    for (const { tag } of ranked) {
      const found = match(tag);
      if (found) return found;
    }
  }
  return DEFAULT_LOCALE;
}

export function textsFor(locale: IdpLocale): Texts {
  return dictionaries[locale];
}
