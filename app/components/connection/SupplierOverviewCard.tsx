import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { Empty, Section } from "~/components/supplier/Section";
import { ActionForm } from "~/components/ui/ActionForm";
import type { CasefileListItem } from "~/models/files/casefiles.server";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import { formatDate } from "~/models/shared/format";

/** Casefile priority colours (shared/spec/02-supplier-credit-connections.md §3): 1 lime, 2 green, 3 yellow, 4 orange, 5 red, any other neutral. */
const PRIORITY_CLASSES: Record<number, string> = {
  1: "bg-lime-200 text-lime-900 border-lime-300",
  2: "bg-green-200 text-green-900 border-green-300",
  3: "bg-yellow-200 text-yellow-900 border-yellow-300",
  4: "bg-orange-200 text-orange-900 border-orange-300",
  5: "bg-red-200 text-red-900 border-red-300",
};

export function priorityClass(priority: number | null | undefined): string {
  return (priority != null && PRIORITY_CLASSES[priority]) || "badge-neutral";
}

function EditIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-5"
      aria-hidden="true"
    >
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
    </svg>
  );
}

function SubHeading({ children }: { children: React.ReactNode }) {
  return <h3 className="mb-1 text-sm font-semibold">{children}</h3>;
}

/**
 * The supplier overview card (shared/spec/02-supplier-credit-connections.md "Supplier overview card"): the
 * organisation's connection to this supplier, with the edit icon that opens
 * the slide-over (`?edit=connection`). When the supplier is not yet a
 * connection, a form to add it.
 */
export function SupplierOverviewCard({ connection, casefiles }: { connection: ConnectionData | null; casefiles: CasefileListItem[] }) {
  const { t, i18n } = useTranslation("connections");
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set("edit", "connection");
  const editHref = `${location.pathname}?${params}`;

  if (!connection) {
    return (
      <Section id="supplier-overview" title={t("card.title")}>
        <p className="mb-3 text-sm">{t("card.notConnected")}</p>
        <ActionForm intent="add-supplier">
          {(form) => (
            <button type="submit" className="btn btn-primary btn-sm" disabled={form.busy}>
              {form.busy ? t("card.adding") : t("card.addSupplier")}
            </button>
          )}
        </ActionForm>
      </Section>
    );
  }

  return (
    <Section
      id="supplier-overview"
      title={t("card.title")}
      actions={
        <Link to={editHref} className="btn btn-ghost btn-sm btn-square" aria-label={t("card.edit")} preventScrollReset>
          <EditIcon />
        </Link>
      }
    >
      <ul className="mb-4 flex flex-wrap gap-2" aria-label={t("edit.status")}>
        <li className="badge badge-success">{t("card.activeSupplier")}</li>
        {connection.is_priority ? <li className="badge badge-warning">{t("card.prioritySupplier")}</li> : null}
        {connection.is_due_diligence ? <li className="badge badge-info">{t("card.underDueDiligence")}</li> : null}
        <li className="badge badge-ghost">{t("card.added", { date: formatDate(connection.createdAt, i18n.language) })}</li>
      </ul>
      {connection.contact_email ? (
        <p className="mb-4 text-sm">
          <span className="text-base-content/70">{t("card.contactEmail")}: </span>
          <a className="link" href={`mailto:${connection.contact_email}`}>
            {connection.contact_email}
          </a>
        </p>
      ) : null}

      <div className="space-y-4">
        <div>
          <SubHeading>{t("card.tags")}</SubHeading>
          {connection.tags.length ? (
            <ul className="flex flex-wrap gap-2">
              {connection.tags.map(({ tag }) => (
                <li key={tag.id} className="badge badge-outline">
                  {tag.title}
                </li>
              ))}
            </ul>
          ) : (
            <Empty>{t("card.noTags")}</Empty>
          )}
        </div>

        <div>
          <SubHeading>{t("card.comments")}</SubHeading>
          {connection.comments.length ? (
            <ul className="space-y-2">
              {connection.comments.map((comment) => (
                <li key={comment.id} className="rounded-box bg-base-200 p-2 text-sm">
                  <p className="whitespace-pre-wrap break-words">{comment.text}</p>
                  <p className="mt-1 text-xs text-base-content/70">
                    {comment.user?.email ?? t("card.unknownUser")} · {formatDate(comment.createdAt, i18n.language)}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <Empty>{t("card.noComments")}</Empty>
          )}
        </div>

        <div>
          <SubHeading>{t("card.files")}</SubHeading>
          {connection.files.length ? (
            <ul className="divide-y divide-base-300">
              {connection.files.map(({ fileUpload }) => (
                <li key={fileUpload.id} className="flex items-center justify-between gap-2 py-1.5 text-sm">
                  <span className="min-w-0 truncate">{fileUpload.fileName}</span>
                  <a
                    href={`/api/file-uploads/${fileUpload.id}/download`}
                    className="btn btn-xs btn-outline"
                    download
                    aria-label={`${t("card.download")} ${fileUpload.fileName}`}
                  >
                    {t("card.download")}
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <Empty>{t("card.noFiles")}</Empty>
          )}
        </div>

        <div>
          <SubHeading>{t("card.casefiles")}</SubHeading>
          {casefiles.length ? (
            <ul className="divide-y divide-base-300">
              {casefiles.map((casefile) => (
                <li key={casefile.id} className="py-2 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={`/casefiles/${casefile.id}`} className="link font-medium">
                      {casefile.title}
                    </Link>
                    <span className="badge badge-ghost badge-sm">{t(`casefileStatus.${casefile.status}`, { defaultValue: casefile.status })}</span>
                    <span className={`badge badge-sm border ${priorityClass(casefile.priority)}`}>
                      {casefile.priority != null && PRIORITY_CLASSES[casefile.priority]
                        ? t("card.priority", { value: casefile.priority })
                        : t("card.priorityNone")}
                    </span>
                  </div>
                  <p className="mt-1 text-xs text-base-content/70">
                    {formatDate(casefile.createdAt, i18n.language)} · {t("card.casefileComments", { count: casefile.comments.length })} ·{" "}
                    {t("card.casefileEvents", { count: casefile.events.length })}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <Empty>{t("card.noCasefiles")}</Empty>
          )}
        </div>
      </div>
    </Section>
  );
}
