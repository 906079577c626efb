import { describe, expect, it } from "vitest";
import { CommentsSection, type CommentViewer } from "~/components/connection/CommentsSection";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import { h, renderPage } from "./remix-page";

/**
 * Delete is offered only where the server allows it: on the viewer's own comments, and on every comment for an
 * administrator of the installation. Before, every comment offered it and another member's was then refused.
 */
const connection = {
  id: 7,
  comments: [
    { id: 1, text: "Mine", createdAt: "2026-11-20T10:00:00.000Z", user: { email: "kari@customer.test" } },
    { id: 2, text: "Theirs", createdAt: "2026-11-21T10:00:00.000Z", user: { email: "ola@customer.test" } },
    { id: 3, text: "A former member's", createdAt: "2026-11-22T10:00:00.000Z", user: null },
  ],
} as unknown as ConnectionData;

async function deleteLinks(viewer: CommentViewer): Promise<string[]> {
  const Screen = () => h(CommentsSection, { connection, now: "2026-11-28T10:00:00.000Z", viewer });
  const { status, html } = await renderPage({ path: "supplier", Component: Screen }, new Request("http://localhost/supplier?externalId=1"), [
    "common",
    "connections",
  ]);
  expect(status).toBe(200);
  return [...html.matchAll(/comment=(\d+)/g)].map((m) => m[1]);
}

describe("deleting a comment", () => {
  it("a member is offered Delete on their own comment only", async () => {
    expect(await deleteLinks({ email: "kari@customer.test", isAdmin: false })).toEqual(["1"]);
  });

  it("an administrator of the installation is offered it on every comment", async () => {
    expect(await deleteLinks({ email: "admin@operator.test", isAdmin: true })).toEqual(["1", "2", "3"]);
  });
});
