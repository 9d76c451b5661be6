import { createContext, useContext } from "react";

/** The Content-Security-Policy nonce of this response; empty in the browser. */
export const NonceContext = createContext("");

export function useNonce() {
  return useContext(NonceContext);
}
