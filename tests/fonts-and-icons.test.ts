import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No font or icon file is downloaded (docs/decisions/014): the UI
 * writes in the system font stack and draws its icons as inline SVG (app/components/ui/icons.tsx). The one
 * image a page loads is the 237-byte /favicon.svg (the tab icon and the shell's logo).
 */

const root = path.resolve(__dirname, "..");

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (keep(file)) found.push(file);
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return found;
}

const FONT_FILE = /\.(woff2?|ttf|otf|eot)$/i;
const RASTER_OR_ICON_FILE = /\.(png|jpe?g|gif|webp|avif|ico|bmp)$/i;

/** Every `url(…)` of a stylesheet that is not inline data (a `data:` URL costs no request). */
function fetchedUrls(css: string): string[] {
  return [...css.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/g)].map((m) => m[2]).filter((u) => !u.startsWith("data:") && !u.startsWith("#"));
}

describe("fonts and icons: nothing to download", () => {
  it("the app's stylesheets declare no font face and fetch no file", () => {
    const sheets = filesUnder(path.join(root, "app"), (f) => f.endsWith(".css"));
    expect(sheets.map((f) => path.relative(root, f))).toContain("app/tailwind.css");
    for (const file of sheets) {
      const css = fs.readFileSync(file, "utf8");
      expect(css, file).not.toMatch(/@font-face/i);
      expect(fetchedUrls(css), file).toEqual([]);
      // Only Tailwind itself is imported (no web-font stylesheet such as fonts.googleapis.com).
      expect(css.match(/@import\s+[^;]+/g) ?? [], file).toEqual(['@import "tailwindcss" source("../app")']);
    }
  });

  it("no module imports a font or a raster image, links a font service, or shows an image other than the favicon", () => {
    for (const file of filesUnder(path.join(root, "app"), (f) => /\.(tsx?|css)$/.test(f))) {
      const text = fs.readFileSync(file, "utf8");
      const where = path.relative(root, file);
      expect(text, where).not.toMatch(/from\s+["'][^"']+\.(woff2?|ttf|otf|eot|png|jpe?g|gif|webp|ico)["']/i);
      expect(text, where).not.toMatch(/fonts\.(googleapis|gstatic)\.com|use\.typekit|fontawesome/i);
      for (const src of text.matchAll(/<img[^>]*\ssrc=\{?["']([^"']+)["']/g)) expect(src[1], where).toBe("/favicon.svg");
    }
  });

  it("public/ holds no font and no raster icon; the favicon is a small SVG", () => {
    const files = filesUnder(path.join(root, "public"), () => true).map((f) => path.relative(path.join(root, "public"), f));
    expect(files.filter((f) => FONT_FILE.test(f) || RASTER_OR_ICON_FILE.test(f))).toEqual([]);
    expect(fs.statSync(path.join(root, "public/favicon.svg")).size).toBeLessThan(2048);
  });

  it("no font or icon package is a dependency", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
    expect(names.filter((n) => /^@fontsource|font-?awesome|^lucide|^react-icons$|^@heroicons|^@tabler\/icons|^@phosphor-icons|^@iconify/i.test(n))).toEqual([]);
  });

  it("the compiled stylesheet (Tailwind with daisyUI, as the build makes it) and uPlot's declare no font face and fetch no file", async () => {
    // Compiled here from the sources, as the build's Tailwind plugin does, so the check runs on a clean checkout too.
    const { compile } = await import("@tailwindcss/node");
    const { Scanner } = await import("@tailwindcss/oxide");
    const compiler = await compile(fs.readFileSync(path.join(root, "app/tailwind.css"), "utf8"), { base: path.join(root, "app"), onDependency: () => {} });
    expect(compiler.root).toMatchObject({ pattern: "../app" });
    const scanner = new Scanner({ sources: [{ base: path.join(root, "app"), pattern: "**/*", negated: false }] });
    const candidates = scanner.scan();
    expect(candidates.length).toBeGreaterThan(100);
    const compiled = compiler.build(candidates);
    expect(compiled).toMatch(/\.btn[ {,:]/); // daisyUI is compiled in
    const uplot = fs.readFileSync(path.join(root, "node_modules/uplot/dist/uPlot.min.css"), "utf8");
    for (const [name, css] of [
      ["app/tailwind.css (compiled)", compiled],
      ["uplot/dist/uPlot.min.css", uplot],
    ]) {
      expect(css, name).not.toMatch(/@font-face/i);
      expect(fetchedUrls(css), name).toEqual([]);
    }
  }, 60_000);
});
