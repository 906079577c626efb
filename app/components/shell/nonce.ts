import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the answer being rendered (made per
 * request by the server, see server/security.ts). The server's render
 * provides it; in the browser it is empty, which is right: the scripts it
 * marks have run by then, and browsers hide nonce attributes from the page.
 */
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
