declare module "@remix-run/node" {
  interface AppLoadContext {
    /** A fresh nonce per response, allowed by the Content-Security-Policy for inline scripts. */
    cspNonce?: string;
  }
}

export {};
