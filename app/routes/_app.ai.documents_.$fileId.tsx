import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { documentPages, pageNumber } from "~/models/files/documents";
import { getDocument } from "~/models/files/documents.server";
import { formatDate } from "~/models/shared/format";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["aiDocuments"] };

/**
 * /ai/documents/:fileId: one of the user's documents with the text the assistant reads from it, a PDF page by page and
 * other files in parts (`?page=`), and "Ask the assistant about this document" (the chat with the file attached). An older
 * upload's text is read the first time it is opened. Anyone else's file, or another organisation's, is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const id = requireId(params.fileId, "fileId");
  const document = await getDocument({ userId: user.id, organizationId: user.organizationId }, id);
  if (!document) throw errorResponse(404, "No document with this id.");
  const { text, ...rest } = document;
  const pages = documentPages(text, document.pages != null);
  const page = pageNumber(new URL(request.url).searchParams.get("page"), pages.length);
  const t = await i18nServer.getFixedT(request);
  return json({
    document: rest,
    page,
    pageCount: pages.length,
    pageText: document.state === "ready" ? (pages[page - 1] ?? "") : "",
    title: `${document.fileName} · ${t("aiDocuments:title")} · ${t("common:appName")}`,
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AiDocumentScreen() {
  const { document: d, page, pageCount, pageText } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("aiDocuments");
  const lng = i18n.language === "no" ? "no" : "en";
  const number = new Intl.NumberFormat(lng === "no" ? "nb-NO" : "en-GB");
  const byPage = d.pages != null;
  return (
    <article aria-labelledby="document-title" className="mx-auto flex max-w-4xl flex-col gap-4">
      <p>
        <Link to="/ai/documents" className="link text-sm">
          ← {t("back")}
        </Link>
      </p>
      <div>
        <h1 id="document-title" className="text-2xl font-semibold break-words">
          {d.fileName}
        </h1>
        <p className="mt-1 text-sm text-base-content/70">
          {t("uploadedOn", { date: formatDate(d.uploadedAt, lng), size: number.format(d.fileSize), kind: t(`kind.${d.contentKind}`) })}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={`/ai/chat?attach=${d.id}`} className="btn btn-primary">
          {t("ask")}
        </Link>
        <Link to={`/files?delete=${d.id}`} className="btn btn-ghost text-error">
          {t("deleteFile")}
        </Link>
      </div>
      <p className="text-xs text-base-content/70">{t("deleteHint")}</p>
      {d.state === "ready" ? (
        <section aria-labelledby="document-text" className="flex flex-col gap-2">
          <h2 id="document-text" className="font-semibold">
            {t("textHeading")}
            <span className="ml-2 text-sm font-normal text-base-content/70">
              {byPage
                ? t("state.readyPages", { count: d.pages ?? 0, characters: number.format(d.characters) })
                : t("state.ready", { characters: number.format(d.characters) })}
            </span>
          </h2>
          {d.truncated ? (
            <p role="note" className="text-sm text-warning-content">
              {t("truncatedNote", { characters: number.format(d.characters) })}
            </p>
          ) : null}
          <h3 id="document-page" className="text-sm font-medium">
            {byPage ? t("pageHeading", { page }) : t("partHeading", { page, pages: pageCount })}
          </h3>
          {/* A scrolling region the keyboard must be able to scroll (WCAG 2.1.1; axe scrollable-region-focusable). */}
          <pre
            role="region"
            aria-labelledby="document-page"
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the region itself is what the keyboard scrolls
            tabIndex={0}
            data-testid="document-text"
            className="max-h-[32rem] overflow-auto rounded-box border border-base-300 bg-base-100 p-4 font-sans text-sm break-words whitespace-pre-wrap"
          >
            {pageText}
          </pre>
          {pageCount > 1 ? (
            <Pagination
              page={page}
              pageCount={pageCount}
              pageSize={1}
              shown={1}
              total={pageCount}
              href={(p) => (p === 1 ? `/ai/documents/${d.id}` : `/ai/documents/${d.id}?page=${p}`)}
            />
          ) : null}
        </section>
      ) : (
        <section role="alert" className="rounded-box bg-error/10 p-4 text-error">
          <h2 className="font-semibold">{t("noTextTitle")}</h2>
          <p>{d.errorKey ? t(d.errorKey) : null}</p>
        </section>
      )}
    </article>
  );
}
