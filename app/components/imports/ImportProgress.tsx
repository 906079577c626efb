import { Link, useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { usePolling } from "~/components/ui/usePolling";
import { useTranslation } from "~/translations";

/** What the import page's loader answers about the import (the part the progress needs). */
export interface ProgressData {
  imp: { status: "analysing" | "ready" | "failed" | "confirmed"; fileName: string; progress: { done: number; total: number | null } | null };
}

/** "N of M rows" and a progress bar; `total` null while the lines are being counted. */
export function ProgressLine({ done, total }: { done: number; total: number | null }) {
  const { t } = useTranslation("imports");
  return (
    <div className="space-y-1">
      <p role="status" className="text-sm">
        {total === null ? t("progress.counting") : t("progress.rows", { done, total })}
      </p>
      <progress className="progress progress-primary w-full" value={total === null ? undefined : done} max={total ?? undefined} />
    </div>
  );
}

/**
 * The progress of an analysis that was just started, after the analysis dialog closed (with JavaScript): it asks the
 * import page's loader every POLL_MS (usePolling) until the analysis has ended, then links to the report.
 */
export function ImportProgress({ href, fileName }: { href: string; fileName: string }) {
  const { t } = useTranslation("imports");
  const fetcher = useFetcher<ProgressData>();
  const imp = fetcher.data?.imp;
  const running = !imp || imp.status === "analysing";
  useEffect(() => {
    if (fetcher.state === "idle" && !fetcher.data) fetcher.load(href);
  }, [href, fetcher]);
  usePolling(running, () => {
    if (fetcher.state === "idle") fetcher.load(href);
  });
  return (
    <section aria-labelledby="import-progress-title" className="card mx-auto max-w-xl border border-base-300 bg-base-100 p-4">
      <h1 id="import-progress-title" className="text-lg font-semibold">
        {t("progress.title", { name: fileName })}
      </h1>
      <div className="mt-3">
        {imp?.status === "ready" || imp?.status === "confirmed" ? (
          <p role="status">{t("progress.ready")}</p>
        ) : imp?.status === "failed" ? (
          <p role="alert" className="text-error">
            {t("progress.failed")}
          </p>
        ) : (
          <ProgressLine done={imp?.progress?.done ?? 0} total={imp?.progress?.total ?? null} />
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to={href} className="btn btn-primary btn-sm">
          {t("progress.open")}
        </Link>
        <Link to="/files" className="btn btn-ghost btn-sm">
          {t("progress.toFiles")}
        </Link>
      </div>
    </section>
  );
}
