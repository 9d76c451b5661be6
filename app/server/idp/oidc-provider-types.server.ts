/**
 * Type declarations for the parts of `oidc-provider` (which ships no types) that the embedded
 * identity provider uses. This file is a script (no imports or exports) so that the module
 * declaration below is ambient.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AnyRecord = Record<string, unknown>;

  export interface OidcParams {
    [key: string]: unknown;
    client_id?: string;
    scope?: string;
    ui_locales?: string;
    resource?: string | string[];
  }

  export interface OidcClient {
    clientId: string;
    clientName?: string;
    grantTypeAllowed(type: string): boolean;
  }

  export interface OidcContextInner {
    params?: OidcParams;
    client?: OidcClient;
    route?: string;
    session?: { accountId?: string };
  }

  /** The Koa context, reduced to what is read here. */
  export interface KoaContextWithOIDC {
    oidc: OidcContextInner;
    req: IncomingMessage;
    res: ServerResponse;
    body: unknown;
    type: string;
    status: number;
    get(header: string): string;
    set(header: string, value: string): void;
  }

  export interface PlainContext {
    req: IncomingMessage;
    res: ServerResponse;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: unknown, rejected: string[]): Promise<AnyRecord> | AnyRecord;
  }

  export interface GrantSource {
    scopes: Set<string>;
    scope?: string;
  }

  export interface TokenLike {
    kind?: string;
    accountId?: string;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: "opaque" | "jwt";
    jwt?: { sign?: { alg?: string; kid?: string } };
  }

  export interface Interaction {
    uid: string;
    grantId?: string;
    returnTo: string;
    params: OidcParams;
    session?: { accountId?: string; uid?: string };
    prompt: {
      name: string;
      reasons: string[];
      details: {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
        [key: string]: unknown;
      };
    };
    lastSubmission?: AnyRecord;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean; acr?: string; amr?: string[]; ts?: number };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
    [key: string]: unknown;
  }

  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(ttl?: number): Promise<string>;
  }

  export class Session {
    static get(ctx: PlainContext): Promise<Session>;
    uid: string;
    accountId?: string;
  }

  export interface Configuration {
    [key: string]: unknown;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    issuer: string;
    proxy: boolean;
    readonly Grant: typeof Grant;
    readonly Session: typeof Session;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    createContext(
      req: IncomingMessage,
      res: ServerResponse,
    ): PlainContext & {
      cookies: { get(name: string, opts?: AnyRecord): string | undefined };
    };
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    urlFor(name: string, opts?: AnyRecord): string;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export class OIDCProviderError extends Error {
    constructor(description?: string);
    status: number;
    error: string;
    error_description?: string;
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    SessionNotFound: typeof OIDCProviderError;
    InvalidTarget: typeof OIDCProviderError;
  };

  export default Provider;
}
