import { describe, expect, it } from "vitest";
import { readNotice, redirectWithNotice } from "~/http/notice.server";

/** A flash notice survives one redirect with its tone: a success by default, a warning when the change asked for one. */
async function next(response: Response) {
  const cookie = response.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  return readNotice(new Request("http://localhost/", { headers: { Cookie: cookie } }));
}

describe("flash notices", () => {
  it("carries the key and a success tone by default", async () => {
    const response = await redirectWithNotice(new Request("http://localhost/x"), "/x", "common:saved");
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/x"]);
    expect(await next(response)).toMatchObject({ notice: "common:saved", tone: "success" });
  });

  it("carries a warning tone when asked, and nothing without a cookie", async () => {
    const response = await redirectWithNotice(new Request("http://localhost/x"), "/x", "admin:notices.organizationCreatedMailFailed", { tone: "warning" });
    expect(await next(response)).toMatchObject({ notice: "admin:notices.organizationCreatedMailFailed", tone: "warning" });
    expect(await readNotice(new Request("http://localhost/"))).toEqual({ notice: null, tone: "success", setCookie: null });
  });
});
