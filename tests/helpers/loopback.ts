import type http from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/**
 * Starts a test server on 127.0.0.1 with a free port. Inside a test it closes
 * itself when the test finishes, so a failing assertion cannot leak a
 * listening socket; started outside one (beforeAll), the caller closes it.
 */
export async function listenOnLoopback(server: http.Server): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Hanging requests keep their sockets open; without this, close() would wait forever.
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  };

  try {
    onTestFinished(close);
  } catch {
    // Started outside a test: the caller closes it.
  }
  return { baseUrl: `http://127.0.0.1:${port}`, close };
}
