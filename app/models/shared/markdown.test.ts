import { describe, expect, it } from "vitest";
import { renderMarkdown, safeUrl } from "~/models/shared/markdown";

/** No element that runs script, no event handler attribute, no dangerous URL anywhere in the output. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<\s*(script|iframe|object|embed|style|svg|math|img|form|input(?! [^>]*type="checkbox")|link|meta|base)\b/i);
  // Attribute values are quoted and escaped: what is inside them cannot start an attribute, so look only outside them.
  const outsideValues = html.replace(/"[^"]*"/g, '""');
  expect(outsideValues).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/(href|src|action|formaction)\s*=\s*"\s*(javascript|data|vbscript):/i);
  for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(safeUrl(href!)).not.toBeNull();
}

describe("renderMarkdown", () => {
  it("renders GitHub-flavoured markdown", () => {
    const html = renderMarkdown("# Risk\n\n**High** and _low_\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~ `code`");
    expect(html).toContain("<h1>Risk</h1>");
    expect(html).toContain("<strong>High</strong>");
    expect(html).toContain("<em>low</em>");
    expect(html).toContain("<table>");
    expect(html).toContain("<del>old</del>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain('type="checkbox"');
  });

  it("opens links in a new tab without access to the page", () => {
    expect(renderMarkdown("[Equinor](/supplier?id=5)")).toContain('<a href="/supplier?id=5" target="_blank" rel="noopener noreferrer">Equinor</a>');
    expect(renderMarkdown("see https://www.brreg.no")).toContain('<a href="https://www.brreg.no" target="_blank" rel="noopener noreferrer">');
    expect(renderMarkdown("[mail](mailto:a@b.no)")).toContain('href="mailto:a@b.no"');
  });

  const attacks: [string, string][] = [
    ["script tag", "<script>alert(1)</script>"],
    ["script in a paragraph", "Hello <script>alert(1)</script> world"],
    ["img onerror", '<img src=x onerror="alert(1)">'],
    ["img onerror inline", "Look: <img src=x onerror=alert(1)> here"],
    ["svg onload", "<svg onload=alert(1)>"],
    ["iframe", '<iframe src="javascript:alert(1)"></iframe>'],
    ["a with javascript", '<a href="javascript:alert(1)">x</a>'],
    ["javascript link", "[click](javascript:alert(1))"],
    ["JavaScript link upper case", "[click](JaVaScRiPt:alert(1))"],
    ["entity-encoded scheme", "[click](&#106;avascript:alert(1))"],
    ["hex entity scheme", "[click](&#x6A;avascript&#x3A;alert(1))"],
    ["named colon entity", "[click](javascript&colon;alert(1))"],
    ["double-encoded entity", "[click](&amp;#106;avascript:alert(1))"],
    ["percent-encoded scheme", "[click](%6Aavascript:alert(1))"],
    ["tab inside the scheme", "[click](java\tscript:alert(1))"],
    ["reference link", "[click][x]\n\n[x]: javascript:alert(1)"],
    ["autolink", "<javascript:alert(1)>"],
    ["data link", "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
    ["vbscript link", "[click](vbscript:msgbox(1))"],
    ["image with javascript", "![x](javascript:alert(1))"],
    ["image with onerror in the title", '![x](/a.png "a\\" onerror=\\"alert(1)")'],
    ["protocol-relative link", "[click](//evil.example/x)"],
    ["event handler in a title", '[click](/ok "x\\" onmouseover=\\"alert(1)")'],
    ["html block", '<div onclick="alert(1)">\n\n**x**\n\n</div>'],
    ["style tag", "<style>body{display:none}</style>"],
    ["html comment", "<!-- <script>alert(1)</script> -->"],
    ["entity in text", "&lt;script&gt;alert(1)&lt;/script&gt;"],
  ];
  it.each(attacks)("%s renders inert", (_name, markdown) => {
    expectInert(renderMarkdown(markdown));
  });

  it("shows raw HTML as text rather than dropping it", () => {
    expect(renderMarkdown("<script>alert(1)</script>")).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(renderMarkdown("x <b>bold</b>")).toContain("x &lt;b&gt;bold&lt;/b&gt;");
  });

  it("keeps the text of a refused link", () => {
    const html = renderMarkdown("[click me](javascript:alert(1))");
    expect(html).toContain("click me");
    expect(html).not.toContain("<a");
  });
});

describe("safeUrl", () => {
  it.each([
    ["https://example.com/a?b=1", true],
    ["http://example.com", true],
    ["/supplier?id=1", true],
    ["#section", true],
    ["supplier?id=1", true],
    ["mailto:a@b.no", true],
    ["javascript:alert(1)", false],
    [" javascript:alert(1)", false],
    ["\u0001javascript:alert(1)", false],
    ["data:text/html,x", false],
    ["file:///etc/passwd", false],
    ["//evil.example", false],
    ["/\\evil.example", false],
    ["", false],
  ])("%s → %s", (url, allowed) => {
    expect(safeUrl(url) !== null).toBe(allowed);
  });
});
