import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The client's address as seen by the server (from the socket, or a trusted proxy). */
    clientAddress?: string;
  }
}
