import { useTranslation } from "~/translations";

/**
 * The box a wide table scrolls sideways in, so the page itself never does.
 * The cue that there is more: a shadow at the edge that still has columns
 * behind it (CSS only: gradients that scroll with the content cover the
 * shadows at the ends), and on a phone a short "scroll sideways" line. The
 * first column (the row's name) stays in place while the rest scrolls.
 *
 * A table with nothing focusable in it (no links, no buttons) names its scroll box with `labelledBy`: the box
 * becomes a focusable region, so the keyboard can scroll it (WCAG 2.1.1; axe scrollable-region-focusable).
 */
export function TableScroll({ className = "", children, labelledBy, ...rest }: React.HTMLAttributes<HTMLDivElement> & { labelledBy?: string }) {
  const { t } = useTranslation();
  const focusable = labelledBy
    ? // A scroll region with nothing else to focus takes focus itself.
      ({ role: "region", "aria-labelledby": labelledBy, tabIndex: 0 } as const)
    : {};
  return (
    <div className={className} {...rest}>
      <p className="px-3 pt-2 text-right text-xs text-base-content/70 sm:hidden" aria-hidden="true">
        {t("tableScrollHint")} →
      </p>
      <div className={`${SCROLL_BOX} ${labelledBy ? "focus-visible:outline-2 focus-visible:outline-primary" : ""}`} {...focusable}>
        {children}
      </div>
    </div>
  );
}

const SCROLL_BOX = [
  "overflow-x-auto",
  // Scroll shadows: two base-coloured covers move with the content (local), two shadows stay at the edges (scroll).
  "[background:linear-gradient(to_right,var(--color-base-100)_30%,transparent)_0_0/2.5rem_100%_no-repeat_local,linear-gradient(to_left,var(--color-base-100)_30%,transparent)_100%_0/2.5rem_100%_no-repeat_local,radial-gradient(farthest-side_at_0_50%,rgb(0_0_0/0.18),transparent)_0_0/0.75rem_100%_no-repeat_scroll,radial-gradient(farthest-side_at_100%_50%,rgb(0_0_0/0.18),transparent)_100%_0/0.75rem_100%_no-repeat_scroll]",
  // The first column stays put (below lg, where the table is wider than the screen).
  "max-lg:[&_tr>:first-child]:sticky max-lg:[&_tr>:first-child]:left-0 max-lg:[&_tr>:first-child]:z-[1] max-lg:[&_tr>:first-child]:bg-base-100",
  "max-lg:[&_tr>:first-child]:shadow-[1px_0_0_var(--color-base-300)]",
].join(" ");
