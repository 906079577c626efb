import { describe, expect, it } from "vitest";
import { checkFeedUrl, isPrivateAddress } from "@server/monitoring/news/url";

/** A news feed may not point inside through an IPv4-compatible IPv6 address ("::7f00:1" is 127.0.0.1). */
describe("news-feed addresses in the IPv4-compatible IPv6 form", () => {
  it.each(["::7f00:1", "::127.0.0.1", "::a00:1", "::c0a8:101", "0:0:0:0:0:0:7f00:1", "::1:2"])("%s is not a public address", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });
  it("a public IPv6 address stays public", () => {
    expect(isPrivateAddress("2001:4860:4860::8888")).toBe(false);
    expect(isPrivateAddress("2a00:1450:4010:c05::64")).toBe(false);
  });
  it.each(["http://[::7f00:1]/feed.xml", "http://[::127.0.0.1]/feed.xml"])("the feed URL %s is refused", async (url) => {
    expect((await checkFeedUrl(url, false)).problem).toBe("private_address");
  });
});
