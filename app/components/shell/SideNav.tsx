import { NavLink, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";
import type { NavGroup } from "./nav-items";

/** Tooltip timings of the collapsed navigation (spec 01 §9). */
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
      className={`shrink-0 border-r border-base-300 bg-base-100 transition-[width] duration-150 ${isExpanded ? "w-60" : "w-16"}`}
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
