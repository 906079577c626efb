import net from "node:net";
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

/** A mail the loopback SMTP server accepted: its recipients and its data (headers and body, as sent). */
export interface ReceivedMail {
  to: string[];
  data: string;
}

/** A loopback SMTP server: its port, the mails it accepted, and how to stop it. */
export interface LoopbackSmtp {
  port: number;
  received: ReceivedMail[];
  close: () => Promise<void>;
}

/**
 * Just enough SMTP for nodemailer (no extensions) on 127.0.0.1 with a free port: every mail it accepts is pushed to
 * `received`; a recipient for whom `refuses(address)` is true (asked at each RCPT, so a test may change its mind) gets
 * "550 no such user". Started in beforeAll: close it in afterAll.
 */
export async function loopbackSmtp(refuses: (address: string) => boolean = () => false): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffer = "";
    let inData = false;
    let current: ReceivedMail = { to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 loopback ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { to: [], data: "" };
          reply("250 queued");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 loopback");
        else if (verb === "RCPT") {
          const address = /<([^>]*)>/.exec(line)?.[1] ?? "";
          if (refuses(address)) reply("550 no such user");
          else {
            current.to.push(address);
            reply("250 ok");
          }
        } else if (verb === "DATA") {
          inData = true;
          reply("354 go ahead");
        } else if (verb === "RSET") {
          current = { to: [], data: "" };
          reply("250 ok");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply("250 ok");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port: (server.address() as AddressInfo).port, received, close };
}
