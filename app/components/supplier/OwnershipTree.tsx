import { Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { useTranslation } from "~/translations";
import { isPlainClick } from "~/components/ui/download";
import { Icon } from "~/components/ui/icons";
import type { Language } from "~/i18n";
import { formatOwnership } from "~/models/shared/format";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { toggleParam } from "./screen-url";

export type OwnershipTreeNode = SupplierScreenData["trees"][string];

/** At most 3 levels (shared/spec/02-supplier-credit-connections.md §9): the organisation itself, what it owns, and what those own. */
export const TREE_LEVELS = 3;

export type ReferenceTarget = { kind: "organization"; id: string } | { kind: "person"; id: number };

/** Reads a registry reference: `/organizations/{orgnr}` or `/people/{id}`. */
export function parseReference(reference: string): ReferenceTarget | null {
  const org = /\/organi[sz]ations\/([^/?#]+)\/?$/.exec(reference);
  if (org) return { kind: "organization", id: decodeURIComponent(org[1]) };
  const person = /\/people\/(\d+)\/?$/.exec(reference);
  if (person) return { kind: "person", id: Number(person[1]) };
  return null;
}

export function supplierHref(orgNumber: string): string {
  return `/supplier?externalId=${encodeURIComponent(orgNumber)}`;
}

/**
 * The expanded ownership trees, from `tree=` parameters. While a navigation
 * to this same supplier is under way its URL counts already, so a toggle
 * opens or closes at once; trees seen once stay in a cache of the component,
 * so re-expanding shows the tree while the loader revalidates.
 */
export function useOwnershipTrees(trees: SupplierScreenData["trees"]) {
  const location = useLocation();
  const navigation = useNavigation();
  const cache = useRef(new Map<string, OwnershipTreeNode>());
  for (const [orgNumber, tree] of Object.entries(trees)) cache.current.set(orgNumber, tree);

  const pending = navigation.location;
  const externalId = (search: string) => new URLSearchParams(search).get("externalId");
  const search =
    pending && pending.pathname === location.pathname && externalId(pending.search) === externalId(location.search) ? pending.search : location.search;
  const open = new Set(new URLSearchParams(search).getAll("tree"));

  return {
    /** A navigation is under way: a tree not seen yet is on its way. */
    loading: navigation.state !== "idle",
    isOpen: (orgNumber: string) => open.has(orgNumber),
    tree: (orgNumber: string): OwnershipTreeNode | undefined => trees[orgNumber] ?? cache.current.get(orgNumber),
    toggleHref: (orgNumber: string) => `${location.pathname}${toggleParam(search, "tree", orgNumber)}`,
  };
}

/**
 * The expand/collapse control of one organisation's tree. Without JavaScript
 * the link carries the entry's anchor, so the reloaded page comes back to the
 * entry rather than to the top; with it, a client navigation that keeps the
 * scroll position.
 */
export function TreeToggle({ name, open, href, anchor, controls }: { name: string; open: boolean; href: string; anchor: string; controls: string }) {
  const { t } = useTranslation("people");
  const navigate = useNavigate();
  return (
    <Link
      to={`${href}#${anchor}`}
      preventScrollReset
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        navigate(href, { preventScrollReset: true });
      }}
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      aria-label={t("ownership.treeToggleLabel", { name })}
      className="btn btn-ghost btn-xs shrink-0 gap-1 font-normal text-base-content/80"
    >
      <Icon name="chevronRight" className={`size-3.5 transition-transform ${open ? "rotate-90" : ""}`} />
      {t("ownership.treeToggle")}
    </Link>
  );
}

/** The companies an organisation owns, nested down to the third level. */
export function OwnershipTree({ id, name, tree, loading }: { id: string; name: string; tree: OwnershipTreeNode | undefined; loading: boolean }) {
  const { t } = useTranslation("people");
  if (!tree && !loading) {
    return (
      <p id={id} className="ml-5 mt-1 text-xs text-base-content/70">
        {t("ownership.treeMissing", { name })}
      </p>
    );
  }
  if (!tree) {
    return (
      <p id={id} role="status" className="ml-5 mt-1 text-xs text-base-content/70">
        <span className="loading loading-spinner loading-xs mr-1 align-middle" aria-hidden="true" />
        {t("ownership.treeLoading")}
      </p>
    );
  }
  if (tree.children.length === 0) {
    return (
      <p id={id} className="ml-5 mt-1 text-xs text-base-content/70">
        {t("ownership.treeEmpty", { name })}
      </p>
    );
  }
  return (
    <div id={id} className="ml-2 mt-1">
      <TreeLevel nodes={tree.children} level={2} label={t("ownership.treeLabel", { name: tree.name || name })} />
    </div>
  );
}

function TreeLevel({ nodes, level, label }: { nodes: OwnershipTreeNode[]; level: number; label: string }) {
  const { t, i18n } = useTranslation("people");
  const lng = (i18n.language === "no" ? "no" : "en") as Language;
  return (
    <ul aria-label={label} className="ml-1 border-l-2 border-base-300 pl-4">
      {nodes.map((node) => (
        <li key={node.organization_id} data-level={level} className="py-0.5">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <Link to={supplierHref(node.organization_id)} className="link link-hover min-w-0 truncate">
              {node.name}
            </Link>
            <span className="shrink-0 tabular-nums text-base-content/80">{formatOwnership(node.ownershipFraction * 100, lng)}</span>
          </div>
          {level < TREE_LEVELS && node.children.length > 0 ? (
            <TreeLevel nodes={node.children} level={level + 1} label={t("ownership.treeLabel", { name: node.name })} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
