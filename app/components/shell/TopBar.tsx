import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "~/components/ui/icons";
import type { Language } from "~/i18n";
import { SearchBox } from "~/components/search/SearchBox";
import { LanguageSwitch } from "./LanguageSwitch";
import { isPlainClick } from "~/components/ui/download";
import { ACCESS_LEVEL_THRESHOLD } from "~/models/accounts/permissions";

export interface ShellUser {
  email: string;
  organizationName: string | null;
  accessLevel: number;
  isAdmin: boolean;
  language: Language;
}

/** Adds or replaces one search parameter of the current URL (panels are URL state). */
function withParam(search: string, key: string, value: string): string {
  const params = new URLSearchParams(search);
  params.set(key, value);
  return `?${params.toString()}`;
}

/** The `?search=open` URL state: on a phone the search covers the top bar, full width. */
const SEARCH_PARAM = "search";

export function TopBar({
  user,
  searchEnabled,
  drawerHref,
  onOpenDrawer,
  unreadNotifications,
  onOpenNotifications,
}: {
  user: ShellUser;
  searchEnabled: boolean;
  /** The bell's number (null: not counted for this user). */
  unreadNotifications: number | null;
  /** With JavaScript, opens the notifications panel in place (no page data loaded again). */
  onOpenNotifications: () => void;
  /** The URL with the navigation drawer open (below lg). */
  drawerHref: string;
  /** With JavaScript, opens the drawer without a round trip. */
  onOpenDrawer: () => void;
}) {
  const { t } = useTranslation();
  const { t: tNav } = useTranslation("nav");
  const location = useLocation();
  const search = useRef<HTMLDivElement>(null);
  const searchOpener = useRef<HTMLAnchorElement>(null);
  const [searchHere, setSearchHere] = useState(false);
  const closeSearchHere = () => {
    setSearchHere(false);
    searchOpener.current?.focus();
  };
  const searchOpen = searchHere || new URLSearchParams(location.search).get(SEARCH_PARAM) === "open";
  const searchClosed = new URLSearchParams(location.search);
  searchClosed.delete(SEARCH_PARAM);
  useEffect(() => setSearchHere(false), [location.key]);
  // With JavaScript, Escape closes the phone's full-width search (after the search box has closed its dropdown).
  useEffect(() => {
    if (!searchHere) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !search.current?.querySelector("[role=listbox], [role=tablist]")) closeSearchHere();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [searchHere]);

  return (
    <header className="relative flex h-14 items-center gap-2 border-b border-base-300 bg-base-100 px-2 sm:gap-3 sm:px-4">
      <Link
        to={drawerHref}
        className="btn btn-ghost btn-sm btn-square lg:hidden"
        aria-label={tNav("openDrawer")}
        title={tNav("openDrawer")}
        preventScrollReset
        onClick={(event) => {
          event.preventDefault();
          onOpenDrawer();
        }}
      >
        <Icon name="menu" />
      </Link>
      <div className="min-w-0 flex-1 md:flex-none md:shrink-0">
        {user.organizationName ? (
          // The explorer reads registry data (level 2, decision 041); below it the organisation's own overview.
          <Link
            to={user.accessLevel >= ACCESS_LEVEL_THRESHOLD ? "/org-structure-explorer" : "/my-organization/overview"}
            className="block truncate font-semibold hover:underline"
          >
            {user.organizationName}
          </Link>
        ) : (
          <span className="block truncate font-semibold">{t("welcome")}</span>
        )}
      </div>

      {searchEnabled ? (
        <>
          <div
            ref={search}
            className={`${searchOpen ? "absolute inset-0 z-40 flex items-center gap-2 bg-base-100 px-2" : "hidden"} md:static md:z-auto md:flex md:flex-1 md:justify-center md:bg-transparent md:px-0`}
          >
            <SearchBox />
            {searchOpen ? (
              <Link
                to={location.pathname + (searchClosed.size ? `?${searchClosed}` : "")}
                className="btn btn-ghost btn-sm btn-square md:hidden"
                aria-label={t("topBar.closeSearch")}
                title={t("topBar.closeSearch")}
                preventScrollReset
                replace
                onClick={(event) => {
                  if (!searchHere) return;
                  event.preventDefault();
                  closeSearchHere();
                }}
              >
                <Icon name="x" />
              </Link>
            ) : null}
          </div>
          <Link
            ref={searchOpener}
            to={withParam(location.search, SEARCH_PARAM, "open")}
            className="btn btn-ghost btn-sm btn-square md:hidden"
            aria-label={t("topBar.openSearch")}
            title={t("topBar.openSearch")}
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              setSearchHere(true);
              requestAnimationFrame(() => search.current?.querySelector<HTMLInputElement>("input[type=search]")?.focus());
            }}
          >
            <Icon name="search" />
          </Link>
        </>
      ) : (
        <div className="hidden flex-1 md:block" />
      )}

      {user.email ? (
        <div className="flex items-center gap-1">
          <Link
            to={withParam(location.search, "panel", "files")}
            className="btn btn-ghost btn-sm btn-square"
            aria-label={t("topBar.files")}
            title={t("topBar.files")}
          >
            <Icon name="folder" />
          </Link>
          <Link
            to={withParam(location.search, "panel", "notifications")}
            className="btn btn-ghost btn-sm btn-square relative"
            aria-label={
              !unreadNotifications
                ? t("topBar.notifications")
                : unreadNotifications > 99
                  ? t("topBar.notificationsUnreadMany")
                  : t("topBar.notificationsUnread", { count: unreadNotifications })
            }
            title={t("topBar.notifications")}
            preventScrollReset
            onClick={(event) => {
              if (!isPlainClick(event)) return;
              event.preventDefault();
              onOpenNotifications();
            }}
          >
            <Icon name="bell" />
            {unreadNotifications ? (
              <span className="badge badge-xs absolute -right-0.5 -top-0.5 h-4 min-w-4 border-0 bg-red-700 px-1 text-[0.625rem] text-white" aria-hidden="true">
                {unreadNotifications > 99 ? "99+" : unreadNotifications}
              </span>
            ) : null}
          </Link>
          <UserMenu user={user} />
        </div>
      ) : null}
    </header>
  );
}

function UserMenu({ user }: { user: ShellUser }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => ref.current?.removeAttribute("open");

  // A <details> menu opens without JavaScript; with it, an outside click or Escape closes it.
  useEffect(() => {
    const onPointer = (e: PointerEvent) => {
      if (ref.current?.open && !ref.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && ref.current?.open) {
        close();
        ref.current.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  return (
    <details ref={ref} className="dropdown dropdown-end">
      <summary className="btn btn-ghost btn-sm btn-square list-none" aria-label={t("userMenu.open")}>
        <Icon name="user" />
      </summary>
      <div className="dropdown-content z-40 mt-2 w-72 rounded-box border border-base-300 bg-base-100 p-3 shadow-lg">
        <p className="truncate font-semibold" data-testid="user-menu-email">
          {user.email}
        </p>
        {user.organizationName ? <p className="truncate text-sm text-base-content/70">{user.organizationName}</p> : null}
        <ul className="menu mt-2 w-full p-0">
          <li>
            <Link to="/my-organization/users" onClick={close}>
              {t("userMenu.users")}
            </Link>
          </li>
          <li>
            <Link to="/account/email-settings" onClick={close}>
              {t("userMenu.emailSettings")}
            </Link>
          </li>
          <li>
            <Link to="/account/change-password" onClick={close}>
              {t("userMenu.changePassword")}
            </Link>
          </li>
        </ul>
        <div className="mt-2 flex items-center justify-between gap-2 border-t border-base-300 pt-2">
          <span className="text-sm text-base-content/70">{t("language.label")}</span>
          <LanguageSwitch current={user.language} onDone={close} />
        </div>
        <Form method="post" action="/logout" className="mt-2 border-t border-base-300 pt-2">
          <button type="submit" className="btn btn-sm btn-ghost w-full justify-start">
            <Icon name="logout" className="size-4" />
            {t("userMenu.signOut")}
          </button>
        </Form>
      </div>
    </details>
  );
}
