import fs from "node:fs";
import path from "node:path";
import { createElement, type ComponentType, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createRequestHandler, type ActionFunctionArgs, type LoaderFunctionArgs, type ServerBuild } from "@remix-run/node";
import { Outlet, RemixServer } from "@remix-run/react";
import { Translations, TranslationsProvider } from "~/translations";

/**
 * Renders one screen through Remix's own server pipeline, as a browser without JavaScript meets it: a stub route
 * (its action, loader and component) under a root that provides the English texts, served by `createRequestHandler`
 * and rendered with `RemixServer`. A POST runs the action and renders the page with its answer, exactly as a plain form
 * post does, so a component's behaviour after a refused post is tested without a browser.
 */

const root = path.resolve(__dirname, "../..");

function englishTexts(namespaces: string[]): Translations {
  const en = Object.fromEntries(namespaces.map((ns) => [ns, JSON.parse(fs.readFileSync(path.join(root, "locales/en", `${ns}.json`), "utf8"))]));
  return new Translations({ language: "en", store: { en } });
}

export interface StubRoute {
  path: string;
  Component: ComponentType;
  action?: (args: ActionFunctionArgs) => unknown;
  loader?: (args: LoaderFunctionArgs) => unknown;
}

function stubBuild(route: StubRoute, namespaces: string[]): ServerBuild {
  const translations = englishTexts(namespaces);
  const Root = () => createElement(TranslationsProvider, { value: translations }, createElement(Outlet));
  const render = (request: Request, status: number, headers: Headers, context: unknown) => {
    const html = renderToString(createElement(RemixServer, { context: context as never, url: request.url }));
    headers.set("Content-Type", "text/html");
    return new Response(`<!DOCTYPE html>${html}`, { status, headers });
  };
  const entry = (id: string, routePath: string, parentId: string | undefined, hasAction: boolean, hasLoader: boolean) => ({
    id,
    path: routePath,
    parentId,
    module: `/${id}.js`,
    imports: [],
    hasAction,
    hasLoader,
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
  });
  return {
    mode: "production",
    basename: undefined,
    publicPath: "/",
    assetsBuildDirectory: "",
    isSpaMode: false,
    future: {},
    assets: {
      version: "stub",
      url: "/manifest.js",
      entry: { module: "/entry.js", imports: [] },
      routes: {
        root: entry("root", "", undefined, false, false),
        "routes/stub": entry("routes/stub", route.path, "root", Boolean(route.action), Boolean(route.loader)),
      },
    },
    entry: { module: { handleError: () => undefined, default: render } },
    routes: {
      root: { id: "root", path: "", module: { default: Root } },
      "routes/stub": {
        id: "routes/stub",
        parentId: "root",
        path: route.path,
        module: { default: route.Component, action: route.action, loader: route.loader },
      },
    },
  } as unknown as ServerBuild;
}

/** The page's HTML and status for a request to the stub route. */
export async function renderPage(route: StubRoute, request: Request, namespaces: string[] = ["common"]): Promise<{ status: number; html: string }> {
  const handler = createRequestHandler(stubBuild(route, namespaces), "production");
  const response = await handler(request, {});
  return { status: response.status, html: await response.text() };
}

/** A plain form post of `fields` to `url` (what a browser without JavaScript sends). */
export function formPost(url: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

export const h = createElement;
export type { ReactNode };
