import { describe, expect, it } from "vitest";
import { noticeParts } from "./frame";

describe("noticeParts", () => {
  it("keeps a plain text as one part", () => {
    expect(noticeParts("Invitation sent.")).toEqual([{ text: "Invitation sent." }]);
  });

  it("splits out links to the app's own pages", () => {
    expect(noticeParts("Saved. Send it again under [Mail that failed](/admin/send-old) later.")).toEqual([
      { text: "Saved. Send it again under " },
      { label: "Mail that failed", href: "/admin/send-old" },
      { text: " later." },
    ]);
    expect(noticeParts("[A](/a)[B](/b?x=1)")).toEqual([
      { label: "A", href: "/a" },
      { label: "B", href: "/b?x=1" },
    ]);
  });

  it("leaves links outside the app as text", () => {
    for (const text of ["See [there](https://example.test/x).", "See [there](//example.test/x).", "See [there](javascript:alert(1))."])
      expect(noticeParts(text)).toEqual([{ text }]);
  });
});
