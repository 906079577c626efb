import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { AnnouncementText } from "~/components/announcements/AnnouncementList";
import { ActionForm } from "~/components/ui/ActionForm";
import { CheckboxField, LabelledControl } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX, announcementStatus } from "~/models/notifications/announcements";
import { announcementAudiences, createAnnouncement, listAnnouncements, withdrawAnnouncement } from "~/models/notifications/announcements.server";
import type { AdminActor } from "~/models/admin/admin.server";
import { formatDateTime } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";
import { isSingleLine } from "~/models/shared/single-line";

export const meta = titleMeta;
export const handle = { i18n: ["admin", "announcements"] };

/**
 * The announcements screen. Its address is the spec's route map's /admin/notifications (the administrator's "notifications"
 * to every user); what it edits are announcements, the word the code, its components and its model use.
 */
const ANNOUNCEMENTS_PATH = "/admin/notifications";

/** The forms of this screen, by the `intent` each posts. */
const ANNOUNCEMENT_INTENT = { create: "create", withdraw: "withdraw" } as const;
const ANNOUNCEMENT_INTENTS = Object.values(ANNOUNCEMENT_INTENT);
type Translate = (key: string, options?: Record<string, unknown>) => string;

const announcementSchema = (t: Translate) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal(ANNOUNCEMENT_INTENT.create),
      audience: z
        .string({ error: t("announcements:errors.audienceRequired") })
        .refine((value) => value === "everyone" || parseId(value) !== null, t("announcements:errors.audienceRequired")),
      title: z
        .string({ error: t("announcements:errors.titleRequired") })
        .trim()
        .min(1, t("announcements:errors.titleRequired"))
        .max(ANNOUNCEMENT_TITLE_MAX, t("announcements:errors.titleTooLong", { max: ANNOUNCEMENT_TITLE_MAX }))
        .refine(isSingleLine, t("common:errors.singleLine")),
      body: z
        .string({ error: t("announcements:errors.bodyRequired") })
        .trim()
        .min(1, t("announcements:errors.bodyRequired"))
        .max(ANNOUNCEMENT_BODY_MAX, t("announcements:errors.bodyTooLong", { max: ANNOUNCEMENT_BODY_MAX })),
      mail: z.literal("on").optional(),
    }),
    z.object({ intent: z.literal(ANNOUNCEMENT_INTENT.withdraw), id: z.string(), redirectTo: z.string().optional() }),
  ]);

/**
 * /admin/notifications (decision 045): the installation's administrator writes an announcement to every user
 * or to one organisation's users, optionally mailed to them by a job; the list shows each with its audience, author,
 * mailing and whether users still see it, and withdraws one. Users see an active one on /overview and /notifications.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const url = new URL(request.url);
  const [list, audiences, title] = await Promise.all([
    listAnnouncements({ page: parseId(url.searchParams.get("page")) }),
    announcementAudiences(),
    pageTitle(request, "announcements:title"),
  ]);
  const at = new Date();
  return json({ list: { ...list, rows: list.rows.map((row) => ({ ...row, status: announcementStatus(row, at) })) }, audiences, title });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, "admin");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema: announcementSchema(t) });
  const intent = formData.get("intent");
  const known = ANNOUNCEMENT_INTENTS.find((name) => name === intent) ?? null;
  if (submission.status !== "success") {
    return refuseForm(submission, { intent: known, formErrors: known ? [] : [t("announcements:errors.invalidRequest")] });
  }
  const actor: AdminActor = {
    id: user.id,
    organizationId: user.organizationId,
    source: requestSource(request, context as { clientAddress?: string | null }),
  };
  const value = submission.value;
  switch (value.intent) {
    case ANNOUNCEMENT_INTENT.create:
      return publish(request, t, submission, actor, value);
    case ANNOUNCEMENT_INTENT.withdraw:
      return withdraw(request, t, submission, actor, value);
  }
}

/** The accepted form, and its submission for the answer should the model refuse it. */
type AnnouncementForm = z.output<ReturnType<typeof announcementSchema>>;
type AnnouncementSubmission = Submission<unknown>;

async function publish(
  request: Request,
  t: Translate,
  submission: AnnouncementSubmission,
  actor: AdminActor,
  value: Extract<AnnouncementForm, { intent: "create" }>,
) {
  const organizationId = value.audience === "everyone" ? null : parseId(value.audience);
  const created = await createAnnouncement(actor, { organizationId, title: value.title, body: value.body, mail: value.mail === "on" });
  if (!created) {
    // The organisation chosen was removed while the form was open.
    return refuseForm(submission, { status: 404, intent: value.intent, fieldErrors: { audience: [t("announcements:errors.audienceGone")] } });
  }
  return redirectWithNotice(request, ANNOUNCEMENTS_PATH, created.mailQueued ? "announcements:notices.publishedMailing" : "announcements:notices.published");
}

async function withdraw(
  request: Request,
  t: Translate,
  submission: AnnouncementSubmission,
  actor: AdminActor,
  value: Extract<AnnouncementForm, { intent: "withdraw" }>,
) {
  const id = parseId(value.id);
  if (id === null || !(await withdrawAnnouncement(actor, id))) {
    return refuseForm(submission, { status: 404, intent: value.intent, formErrors: [t("announcements:errors.notFound")] });
  }
  return redirectWithNotice(request, safeRedirect(value.redirectTo, ANNOUNCEMENTS_PATH), "announcements:notices.withdrawn");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AdminAnnouncementsScreen() {
  const { list } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("announcements");
  const href = (page: number) => (page > 1 ? `${ANNOUNCEMENTS_PATH}?page=${page}` : ANNOUNCEMENTS_PATH);
  const here = href(list.page);
  return (
    <section aria-labelledby="announcements-title" className="mx-auto max-w-5xl">
      <AdminHeader id="announcements-title" title={t("title")} intro={t("intro")} current="announcements" />
      {/* A new element once one is published (the total grows): with JavaScript the form is empty again, as after a reload. */}
      <CreateAnnouncement key={list.total} />
      <h2 id="announcements-list-heading" className="mt-8 text-lg font-semibold">
        {t("list.heading")}
      </h2>
      {list.rows.length === 0 ? (
        <p className="mt-3 rounded-box border border-dashed border-base-300 bg-base-100 p-6 text-sm">{t("list.empty")}</p>
      ) : (
        <>
          <ol aria-labelledby="announcements-list-heading" className="mt-3 flex flex-col gap-3">
            {list.rows.map((row) => (
              <li key={row.id} id={`announcement-${row.id}`} className="rounded-box border border-base-300 bg-base-100 p-4">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <AnnouncementText title={row.title} body={row.body} headingLevel={3} />
                  <span className={`badge badge-sm ${row.status === "shown" ? "badge-success" : "badge-ghost"}`}>{t(`status.${row.status}`)}</span>
                </div>
                <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                  <dt className="text-base-content/70">{t("list.audience")}</dt>
                  <dd className="break-words">{row.organizationId == null ? t("audience.everyone") : (row.organizationName ?? t("audience.removed"))}</dd>
                  <dt className="text-base-content/70">{t("list.published")}</dt>
                  <dd className="break-words">
                    {row.author
                      ? t("list.publishedBy", { when: formatDateTime(row.createdAt, i18n.language), author: row.author })
                      : formatDateTime(row.createdAt, i18n.language)}
                  </dd>
                  <dt className="text-base-content/70">{t("list.mail")}</dt>
                  <dd>
                    {row.mailQueuedAt == null
                      ? t("mail.notMailed")
                      : row.mailedAt == null
                        ? t("mail.sending", { count: row.mailedCount })
                        : t("mail.sent", { count: row.mailedCount })}
                    {row.mailFailedCount > 0 ? <span className="ml-1 text-error">{t("mail.failed", { count: row.mailFailedCount })}</span> : null}
                  </dd>
                  {row.withdrawnAt ? (
                    <>
                      <dt className="text-base-content/70">{t("list.withdrawn")}</dt>
                      <dd>{formatDateTime(row.withdrawnAt, i18n.language)}</dd>
                    </>
                  ) : null}
                </dl>
                {row.withdrawnAt == null ? (
                  <ActionForm intent={ANNOUNCEMENT_INTENT.withdraw} fields={{ id: row.id }} redirectTo={here} className="mt-3">
                    {(form) => (
                      <button type="submit" className="btn btn-sm" disabled={form.busy} aria-label={t("list.withdrawNamed", { title: row.title })}>
                        {form.busy ? t("list.withdrawing") : t("list.withdraw")}
                      </button>
                    )}
                  </ActionForm>
                ) : null}
              </li>
            ))}
          </ol>
          <Pagination page={list.page} pageCount={list.pageCount} pageSize={list.pageSize} shown={list.rows.length} total={list.total} href={href} />
        </>
      )}
    </section>
  );
}

function CreateAnnouncement() {
  const { audiences } = useLoaderData<typeof loader>();
  const { t } = useTranslation("announcements");
  const groups = [
    ["customers", audiences.filter((o) => o.kind === "customer")],
    ["suppliers", audiences.filter((o) => o.kind === "supplier")],
  ] as const;
  return (
    <section aria-labelledby="create-announcement-heading" className="mt-6 rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="create-announcement-heading" className="text-lg font-semibold">
        {t("create.heading")}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("create.intro")}</p>
      <ActionForm intent={ANNOUNCEMENT_INTENT.create} action={ANNOUNCEMENTS_PATH} redirectTo={ANNOUNCEMENTS_PATH} className="mt-4 flex flex-col gap-4">
        {(form) => (
          <>
            <div className="max-w-md">
              <LabelledControl id="announcement-audience" label={t("create.audience")} errors={form.errors("audience")}>
                {(control) => (
                  <select name="audience" required defaultValue={form.kept("audience") ?? "everyone"} className="select select-sm w-full" {...control}>
                    <option value="everyone">{t("audience.everyone")}</option>
                    {groups.map(([key, organizations]) =>
                      organizations.length > 0 ? (
                        <optgroup key={key} label={t(`audience.${key}`)}>
                          {organizations.map((o) => (
                            <option key={o.id} value={o.id}>
                              {o.name}
                            </option>
                          ))}
                        </optgroup>
                      ) : null,
                    )}
                  </select>
                )}
              </LabelledControl>
            </div>
            <LabelledControl id="announcement-title" label={t("create.titleLabel")} errors={form.errors("title")}>
              {(control) => (
                <input
                  name="title"
                  required
                  maxLength={ANNOUNCEMENT_TITLE_MAX}
                  defaultValue={form.kept("title")}
                  className="input input-sm w-full"
                  {...control}
                />
              )}
            </LabelledControl>
            <LabelledControl
              id="announcement-body"
              label={t("create.body")}
              hint={t("create.bodyHint", { max: ANNOUNCEMENT_BODY_MAX })}
              errors={form.errors("body")}
            >
              {(control) => (
                <textarea
                  name="body"
                  required
                  rows={5}
                  maxLength={ANNOUNCEMENT_BODY_MAX}
                  defaultValue={form.kept("body")}
                  className="textarea w-full"
                  {...control}
                />
              )}
            </LabelledControl>
            <CheckboxField id="announcement-mail" name="mail" label={t("create.mail")} defaultChecked={form.kept("mail") === "on"} />
            <div>
              <button type="submit" className="btn btn-primary btn-sm w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? t("create.publishing") : t("create.publish")}
              </button>
            </div>
          </>
        )}
      </ActionForm>
    </section>
  );
}
