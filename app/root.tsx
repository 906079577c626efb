import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useRouteLoaderData } from "@remix-run/react";
import { Suspense, useEffect } from "react";
import { useTranslation } from "~/translations";
import { navCookie, parseCookie } from "@server/cookies";
import { PublicShell } from "~/components/shell/PublicShell";
import { useReloadOnNewBuild } from "~/components/shell/build-updates";
import { useNonce } from "~/components/shell/nonce";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { PageHydrated } from "~/components/ui/PageHydrated";
import { errorPageTitle, type ErrorTitles } from "~/components/ui/meta";
import { PageTexts } from "~/components/ui/PageTexts";
import { fallbackLanguage, NAMESPACES_META, pageNamespaces, shipsScripts, type Language } from "~/i18n";
import i18nServer from "~/i18n.server";
import { getUser } from "~/http/auth.server";
import { readNotice } from "~/http/notice.server";
import { can, isPublicPath } from "~/models/accounts/permissions";
import stylesheet from "~/tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** Error pages get a title too (child routes' titles are gone when they fail). */
export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  if (!error || !data) return [];
  return [{ title: errorPageTitle(error, data.errorTitles) }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  // Access guard (shared/spec/01-shell-chat-lei.md §6): a visitor may only open the public pages.
  if (!user && !isPublicPath(url.pathname)) throw redirect("/");

  const [locale, navPref, flash] = await Promise.all([
    i18nServer.getLocale(request) as Promise<Language>,
    parseCookie(navCookie, request),
    readNotice(request),
  ]);
  const t = await i18nServer.getFixedT(request);
  return json(
    {
      locale,
      errorTitles: {
        notFound: t("errors.notFoundTitle"),
        forbidden: t("errors.forbiddenTitle"),
        badRequest: t("errors.badRequestTitle"),
        server: t("errors.serverErrorTitle"),
        app: t("appName"),
      } satisfies ErrorTitles,
      navExpanded: navPref === "expanded",
      notice: flash.notice ? { key: flash.notice, tone: flash.tone } : null,
      user: user && {
        email: user.email,
        organizationName: user.organizationName,
        accessLevel: user.accessLevel,
        isAdmin: user.isAdmin,
        language: user.language,
        searchEnabled: can(user, "registryRead"),
      },
    },
    { headers: flash.setCookie ? { "Set-Cookie": flash.setCookie } : undefined },
  );
}

export type RootData = typeof loader;

export function useRootData() {
  return useRouteLoaderData<RootData>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const locale = data?.locale ?? fallbackLanguage;
  const nonce = useNonce();
  const matches = useMatches();
  const location = useLocation();
  // A respondent page (route handle `scripts: false`) is plain HTML and forms: no script at all.
  const scripts = shipsScripts(matches);
  const namespaces = pageNamespaces(matches, { signedIn: Boolean(data?.user), searchParams: new URLSearchParams(location.search) });
  useLanguageSync(locale);
  useReloadOnNewBuild();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        {scripts && <meta name={NAMESPACES_META} content={namespaces.join(",")} />}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-base-200 text-base-content">
        {children}
        {scripts && <ScrollRestoration nonce={nonce} />}
        {scripts && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

/** After a language change on the server, switch: the namespaces in use are loaded in the new language first. */
function useLanguageSync(locale: Language) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale, i18n]);
}

/** The signed-in screens have their frame in the `_app` layout route; every other page (sign-in, respondent) this one. */
function Frame({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const inApp = useMatches().some((match) => match.id === SIGNED_IN_LAYOUT);
  if (inApp) return <>{children}</>;
  return (
    <PublicShell locale={data?.locale ?? fallbackLanguage} notice={data?.notice ?? null}>
      {children}
    </PublicShell>
  );
}

const SIGNED_IN_LAYOUT = "routes/_app";

export default function App() {
  // The signed-in layout has a boundary of its own and marks hydration inside it.
  const inApp = useMatches().some((match) => match.id === SIGNED_IN_LAYOUT);
  const signedIn = Boolean(useRootData()?.user);
  return (
    <Frame>
      {/* A screen whose texts are not loaded yet waits here (navigations keep the previous screen meanwhile). */}
      <Suspense>
        {inApp ? null : <PageTexts signedIn={signedIn} />}
        <Outlet />
        {inApp ? null : <PageHydrated />}
      </Suspense>
    </Frame>
  );
}

/** The root itself failed (its loader, or a page outside the signed-in layout): the public frame, the error explained. */
export function ErrorBoundary() {
  const data = useRootData();
  return (
    <PublicShell locale={data?.locale ?? fallbackLanguage} notice={null}>
      <GeneralErrorBoundary />
    </PublicShell>
  );
}
