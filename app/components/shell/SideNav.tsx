import { Link, NavLink, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "~/components/ui/icons";
import { useModal } from "~/components/ui/useModal";
import type { NavGroup } from "./nav-items";

/** Tooltip timings of the collapsed navigation (shared/spec/01-shell-chat-lei.md §9). */
export const FLYOUT_OPEN_DELAY_MS = 50;
export const FLYOUT_CLOSE_DELAY_MS = 100;

export function SideNav({ groups, expanded }: { groups: NavGroup[]; expanded: boolean }) {
  const { t } = useTranslation("nav");
  const location = useLocation();
  const fetcher = useFetcher();
  // Optimistic: the toggle answers at once while the choice is saved in a cookie.
  const pending = fetcher.formData?.get("expanded");
  const isExpanded = pending != null ? pending === "true" : expanded;
  const here = location.pathname + location.search;

  return (
    <nav
      aria-label={t("label")}
      data-expanded={isExpanded}
      // Below lg the navigation is the drawer (NavDrawer), opened from the top bar.
      className={`hidden shrink-0 border-r border-base-300 bg-base-100 transition-[width] duration-150 lg:block ${isExpanded ? "w-60" : "w-16"}`}
    >
      <fetcher.Form method="post" action="/preferences/nav" className="flex justify-end p-2">
        <input type="hidden" name="expanded" value={isExpanded ? "false" : "true"} />
        <input type="hidden" name="redirectTo" value={here} />
        <button
          type="submit"
          className="btn btn-ghost btn-sm btn-square"
          aria-label={isExpanded ? t("collapse") : t("expand")}
          aria-expanded={isExpanded}
          title={isExpanded ? t("collapse") : t("expand")}
        >
          <Icon name={isExpanded ? "chevronLeft" : "menu"} />
        </button>
      </fetcher.Form>
      {isExpanded ? <ExpandedGroups groups={groups} /> : <CollapsedGroups groups={groups} />}
    </nav>
  );
}

/** The page behind the open drawer does not scroll, with or without JavaScript. */
const DRAWER_SCROLL_LOCK = "@media (max-width: 63.99rem){html:has([data-drawer]){overflow:hidden}}";

/** The `?nav=open` URL state of the drawer: it opens and closes as plain links without JavaScript. */
export const DRAWER_PARAM = "nav";

/**
 * The side navigation on a phone or tablet (below lg): a drawer over the
 * content from the left, always with its groups expanded. It is URL state
 * (closeHref is the URL without it) so it works as links without JavaScript;
 * with it, the top bar opens it without a round trip (onClose then closes it
 * the same way), focus moves in and back, the page behind is inert, and Escape,
 * the backdrop or a chosen screen closes it.
 */
export function NavDrawer({ groups, closeHref, onClose }: { groups: NavGroup[]; closeHref: string; onClose: (() => void) | null }) {
  const { t } = useTranslation("nav");
  const ref = useRef<HTMLElement>(null);
  const closeRef = useRef<HTMLAnchorElement>(null);
  const location = useLocation();
  const navigate = useNavigate();
  const close = () => (onClose ? onClose() : navigate(closeHref, { preventScrollReset: true, replace: true }));
  useModal(ref, close, undefined, { initialFocus: closeRef });
  const onLink = (event: React.MouseEvent) => {
    if (!onClose) return;
    event.preventDefault();
    onClose();
  };
  // Choosing a screen in the drawer leaves it closed on the next page.
  const firstLocation = useRef(location.key);
  useEffect(() => {
    if (location.key !== firstLocation.current) onClose?.();
  }, [location.key, onClose]);

  return (
    <div data-drawer="" className="fixed inset-0 z-50 flex lg:hidden">
      <style>{DRAWER_SCROLL_LOCK}</style>
      <Link
        to={closeHref}
        onClick={onLink}
        className="absolute inset-0 bg-black/40 transition-opacity duration-200 starting:opacity-0"
        aria-hidden="true"
        tabIndex={-1}
        data-modal-backdrop=""
        preventScrollReset
        replace
      />
      <nav
        ref={ref}
        aria-label={t("label")}
        tabIndex={-1}
        className="relative flex h-full w-72 max-w-[85vw] flex-col overflow-y-auto bg-base-100 shadow-xl outline-none transition-transform duration-200 starting:-translate-x-full"
      >
        <div className="flex justify-end p-2">
          <Link
            ref={closeRef}
            to={closeHref}
            onClick={onLink}
            className="btn btn-ghost btn-sm btn-square"
            aria-label={t("closeDrawer")}
            title={t("closeDrawer")}
            preventScrollReset
            replace
          >
            <Icon name="x" />
          </Link>
        </div>
        <ExpandedGroups groups={groups} />
      </nav>
    </div>
  );
}

function ExpandedGroups({ groups }: { groups: NavGroup[] }) {
  const { t } = useTranslation("nav");
  return (
    <div className="px-2 pb-4">
      {groups.map((group) => (
        <details key={group.key} open className="group mb-1">
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-2 py-2 text-sm font-semibold text-base-content/80 hover:bg-base-200">
            <Icon name={group.icon} />
            <span className="flex-1">{t(`groups.${group.key}`)}</span>
            <Icon name="chevronRight" className="size-4 transition-transform group-open:rotate-90" />
          </summary>
          <ul className="mt-1 space-y-0.5 pl-9">
            {group.items.map((item) => (
              <li key={item.to}>
                <NavItemLink to={item.to}>{t(`screens.${item.key}`)}</NavItemLink>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

function CollapsedGroups({ groups }: { groups: NavGroup[] }) {
  const { t } = useTranslation("nav");
  const [open, setOpen] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  // One tooltip at a time: opening one replaces any other; each waits its delay.
  const schedule = (key: string | null, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(key), delay);
  };

  return (
    <ul className="flex flex-col items-center gap-1 pb-4">
      {groups.map((group) => {
        const flyoutId = `nav-flyout-${group.key}`;
        const isOpen = open === group.key;
        return (
          <li
            key={group.key}
            className="nav-group relative"
            data-open={isOpen}
            onMouseEnter={() => schedule(group.key, FLYOUT_OPEN_DELAY_MS)}
            onMouseLeave={() => schedule(null, FLYOUT_CLOSE_DELAY_MS)}
            onFocus={() => schedule(group.key, 0)}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) schedule(null, 0);
            }}
          >
            <button
              type="button"
              className="btn btn-ghost btn-square"
              aria-label={t(`groups.${group.key}`)}
              aria-controls={flyoutId}
              aria-expanded={isOpen}
              onClick={() => setOpen(isOpen ? null : group.key)}
            >
              <Icon name={group.icon} />
            </button>
            <div
              id={flyoutId}
              role="tooltip"
              className="nav-flyout absolute left-full top-0 z-30 ml-2 min-w-52 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
            >
              <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-base-content/70">{t(`groups.${group.key}`)}</p>
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavItemLink to={item.to}>{t(`screens.${item.key}`)}</NavItemLink>
                  </li>
                ))}
              </ul>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function NavItemLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <NavLink
      to={to}
      className={({ isActive }) => `block rounded-md px-2 py-1.5 text-sm hover:bg-base-200 ${isActive ? "bg-primary/10 font-semibold text-primary" : ""}`}
    >
      {children}
    </NavLink>
  );
}
