declare module "@remix-run/node" {
  interface AppLoadContext {
    /** A fresh nonce per response, allowed by the Content-Security-Policy for inline scripts. */
    cspNonce?: string;
    /** The client's address (X-Forwarded-For's first where TRUST_PROXY is set): what link tries are counted by. */
    clientAddress?: string;
    /** The form's body was refused before it was read, declared over its limit (body.server.ts). */
    bodyRefused?: "tooLarge";
  }
}

export {};
