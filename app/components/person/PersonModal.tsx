import type { SerializeFrom } from "@remix-run/node";
import { Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { isPlainClick } from "~/components/ui/download";
import { Dialog } from "~/components/ui/Dialog";
import { supplierHref, parseReference } from "~/components/supplier/OwnershipTree";
import { Icon } from "~/components/ui/icons";
import type { Language } from "~/i18n";
import { formatCountry, formatDate, formatOwnership, MISSING } from "~/models/shared/format";
import { roleLabel } from "~/models/registry/roles";
import type { loadPersonDialog } from "~/models/registry/person-dialog.server";
import type { PersonTab } from "~/models/registry/registry-params";
import { roleOrganisationStatus } from "~/models/suppliers/risk";
import { pageWithoutDialog, type OpenedFrom } from "./person-link";

export type PersonDialogData = NonNullable<SerializeFrom<Awaited<ReturnType<typeof loadPersonDialog>>>>;
type Role = PersonDialogData["person"]["roles"][number];

const TABS: readonly PersonTab[] = ["cv", "shares", "relations"];

/** The tab shown: the one being navigated to (so tabs switch at once with JavaScript), else the URL's. */
function useShownTab(personId: number, loaded: PersonTab): PersonTab {
  const navigation = useNavigation();
  const location = useLocation();
  const pending = navigation.location;
  if (!pending || pending.pathname !== location.pathname) return loaded;
  const params = new URLSearchParams(pending.search);
  if (params.get("person") !== String(personId)) return loaded;
  const tab = params.get("personTab");
  return tab === "shares" || tab === "relations" ? tab : "cv";
}

/**
 * The person full-screen dialog (shared/spec/02-supplier-credit-connections.md "Person full-screen modal"), URL
 * state on any page: `?person={id}&personTab=cv|shares|relations`. Without
 * JavaScript it is a fixed layer over the page whose Back, Close and tabs are
 * plain links; with it, Escape closes, focus moves in and returns, the page
 * behind is inert and does not scroll.
 */
export function PersonModal({ dialog }: { dialog: PersonDialogData }) {
  const { t, i18n } = useTranslation("people");
  const lng = (i18n.language === "no" ? "no" : "en") as Language;
  const location = useLocation();
  const navigate = useNavigate();
  const { person } = dialog;
  const tab = useShownTab(person.id, dialog.tab);
  const closeHref = pageWithoutDialog(location.pathname, location.search);
  const openedFromThisPage = (location.state as OpenedFrom | null)?.personDialogFrom === closeHref;

  const onBack = (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (!openedFromThisPage || !isPlainClick(event)) return;
    event.preventDefault();
    navigate(-1);
  };

  const tabHref = (target: PersonTab) => {
    const params = new URLSearchParams(location.search);
    if (target === "cv") params.delete("personTab");
    else params.set("personTab", target);
    return `${location.pathname}?${params}`;
  };

  const facts: Array<[string, string]> = [
    [t("person.age"), person.age != null ? t("person.ageValue", { age: person.age }) : MISSING],
    [t("person.sex"), sexLabel(person.sex, t)],
    [t("person.country"), formatCountry(person.country, lng)],
    [t("person.boardscore"), String(Math.round(person.boardscore))],
  ];

  return (
    <Dialog
      variant="full-screen"
      title={person.name}
      closeHref={closeHref}
      closeLabel={t("person.close")}
      focusKey={person.id}
      headerStart={
        <Link to={closeHref} preventScrollReset onClick={onBack} className="btn btn-ghost btn-sm">
          <Icon name="chevronLeft" className="size-4" />
          {t("person.back")}
        </Link>
      }
    >
      <div className="py-2">
        <dl aria-label={t("person.facts", { name: person.name })} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {facts.map(([label, value]) => (
            <div key={label} className="rounded-box border border-base-300 bg-base-100 px-4 py-3">
              <dt className="text-xs text-base-content/70">{label}</dt>
              <dd className="mt-0.5 font-semibold">{value}</dd>
            </div>
          ))}
        </dl>

        <nav aria-label={t("person.tabsLabel")} className="tabs tabs-border mt-6">
          {TABS.map((key) => (
            <Link
              key={key}
              to={tabHref(key)}
              // Tabs replace the history entry, so Back still leads out of the dialog.
              replace
              state={location.state}
              preventScrollReset
              aria-current={tab === key ? "page" : undefined}
              className={`tab font-medium ${tab === key ? "tab-active" : "text-base-content/75"}`}
            >
              {t(`person.tabs.${key}`)}
            </Link>
          ))}
        </nav>

        <div className="mt-4">
          {tab === "cv" ? <ManagementCv person={person} /> : null}
          {tab === "shares" ? <Shares shares={person.shares} lng={lng} /> : null}
          {tab === "relations" ? <Relations dialog={dialog} /> : null}
        </div>
      </div>
    </Dialog>
  );
}

function sexLabel(sex: string | null, t: (key: string) => string): string {
  if (!sex) return MISSING;
  const s = sex.trim().toLowerCase();
  if (["m", "male", "mann"].includes(s)) return t("person.sexValues.male");
  if (["f", "k", "female", "kvinne"].includes(s)) return t("person.sexValues.female");
  return sex;
}

function OrganisationLink({ reference, name }: { reference: string; name: string }) {
  const target = parseReference(reference);
  if (target?.kind !== "organization") return <>{name}</>;
  return (
    <Link to={supplierHref(target.id)} className="link link-hover font-medium">
      {name}
    </Link>
  );
}

function ManagementCv({ person }: { person: PersonDialogData["person"] }) {
  const { t } = useTranslation("people");
  return (
    <div className="flex flex-col gap-6">
      <RoleTable id="person-current-roles" title={t("person.currentRoles")} roles={person.roles} empty={t("person.noCurrentRoles")} />
      <RoleTable id="person-former-roles" title={t("person.inactiveRoles")} roles={person.inactive_roles} empty={t("person.noInactiveRoles")} />
    </div>
  );
}

function RoleTable({ id, title, roles, empty }: { id: string; title: string; roles: Role[]; empty: string }) {
  const { t, i18n } = useTranslation("people");
  const lng: Language = i18n.language === "no" ? "no" : "en";
  return (
    <section aria-labelledby={id} className="rounded-box border border-base-300 bg-base-100 p-4">
      <h3 id={id} className="mb-2 font-semibold">
        {title}
      </h3>
      {roles.length === 0 ? (
        <p className="text-sm text-base-content/70">{empty}</p>
      ) : (
        // On narrow screens each row becomes a small card; the header stays for screen readers.
        <div>
          <table className="table sm:table-fixed">
            <colgroup>
              <col className="sm:w-[34%]" />
              <col className="sm:w-[22%]" />
              <col className="sm:w-[26%]" />
              <col className="sm:w-[18%]" />
            </colgroup>
            <thead className="text-base-content/75 max-sm:sr-only">
              <tr>
                <th scope="col">{t("person.organization")}</th>
                <th scope="col">{t("person.position")}</th>
                <th scope="col">{t("person.period")}</th>
                <th scope="col">{t("person.status")}</th>
              </tr>
            </thead>
            <tbody>
              {roles.map((role, i) => (
                <tr
                  key={`${role.organization}-${role.position}-${i}`}
                  className="max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:border-b max-sm:border-base-300 max-sm:py-2 max-sm:last:border-0 max-sm:[&>td]:border-0 max-sm:[&>td]:p-0"
                >
                  <td className="max-sm:w-full">
                    <OrganisationLink reference={role.organization} name={role.organization_name} />
                  </td>
                  <td>{roleLabel(role.position, t)}</td>
                  <td className="whitespace-nowrap max-sm:text-sm max-sm:text-base-content/75">
                    {formatDate(role.active_from, lng)} – {role.active_to ? formatDate(role.active_to, lng) : t("person.present")}
                  </td>
                  <td>
                    <RoleStatus role={role} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function RoleStatus({ role }: { role: Role }) {
  const { t, i18n } = useTranslation("people");
  const lng: Language = i18n.language === "no" ? "no" : "en";
  const status = roleOrganisationStatus(role.organization_status);
  if (status.status === "bankrupt") {
    return (
      <span className="badge badge-error badge-sm whitespace-nowrap">
        {t("person.statusBankrupt")} <time dateTime={status.date}>{formatDate(status.date, lng)}</time>
      </span>
    );
  }
  if (status.status === "inactive") return <span className="badge badge-warning badge-sm">{t("person.statusInactive")}</span>;
  return <span className="badge badge-success badge-sm">{t("person.statusActive")}</span>;
}

function Shares({ shares, lng }: { shares: PersonDialogData["person"]["shares"]; lng: Language }) {
  const { t } = useTranslation("people");
  if (shares.length === 0) return <p className="rounded-box border border-base-300 bg-base-100 p-4 text-sm text-base-content/70">{t("person.noShares")}</p>;
  return (
    <section aria-label={t("person.tabs.shares")} className="overflow-x-auto rounded-box border border-base-300 bg-base-100 p-4">
      <table className="table">
        <thead className="text-base-content/75">
          <tr>
            <th scope="col">{t("person.shareName")}</th>
            <th scope="col" className="text-right">
              {t("person.shareOwnership")}
            </th>
            <th scope="col">{t("person.shareCountry")}</th>
          </tr>
        </thead>
        <tbody>
          {shares.map((share) => (
            <tr key={share.reference}>
              <td>
                <OrganisationLink reference={share.reference} name={share.name} />
              </td>
              <td className="text-right tabular-nums">{formatOwnership(share.ownership, lng)}</td>
              <td>{formatCountry(share.country_code, lng)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Relations({ dialog }: { dialog: PersonDialogData }) {
  const { t } = useTranslation("people");
  const location = useLocation();
  const personHref = (id: number) => {
    const params = new URLSearchParams(location.search);
    params.set("person", String(id));
    params.delete("personTab");
    return `${location.pathname}?${params}`;
  };
  if (dialog.relations.length === 0) {
    return <p className="rounded-box border border-base-300 bg-base-100 p-4 text-sm text-base-content/70">{t("person.relationsEmpty")}</p>;
  }
  return (
    <section aria-label={t("person.tabs.relations")} className="rounded-box border border-base-300 bg-base-100 p-4">
      <p className="mb-2 text-sm text-base-content/70">{t("person.relationsLead", { name: dialog.person.name })}</p>
      <ul className="divide-y divide-base-300">
        {dialog.relations.map((relation) => (
          <li key={relation.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
            <span className="min-w-0">
              <Link to={personHref(relation.id)} preventScrollReset className="link link-hover font-medium">
                {relation.name}
              </Link>
              <span className="ml-2 text-xs text-base-content/70">{t("relations.sharedBoards", { count: relation.sharedBoards.length })}</span>
            </span>
            <ul aria-label={t("relations.sharedBoardsLabel", { name: relation.name })} className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
              {relation.sharedBoards.map((board) => (
                <li key={board.organization}>
                  <OrganisationLink reference={board.organization} name={board.organization_name} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
