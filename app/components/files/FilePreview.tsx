import { Link } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/translations";
import { Dialog } from "~/components/ui/Dialog";
import { TableScroll } from "~/components/ui/TableScroll";
import { columnLetter } from "~/models/files/spreadsheet-columns";

/**
 * The file preview modal (shared/spec/02-supplier-credit-connections.md "File preview modal"): a PDF in a frame
 * served inline by this origin; a workbook or CSV as its first rows in a
 * table, its sheets as links (`?sheet=`), with the note that only those rows
 * are shown; a file the readers refuse, their message. It is a page, so it
 * works without JavaScript; the X and the backdrop go back to `closeHref`.
 */
export interface FilePreviewData {
  fileId: number;
  fileName: string;
  kind: "pdf" | "xlsx" | "xls" | "csv" | "other";
  sheets: string[];
  sheet: number;
  rows: string[][];
  /** The readers' message when they refused the file. */
  refused: string | null;
  previewRows: number;
  analysable: boolean;
}

/** `?sheet=` (and returnTo) for a sheet's tab. */
function sheetHref(sheet: number, returnTo: string): string {
  const params = new URLSearchParams();
  if (sheet > 0) params.set("sheet", String(sheet));
  if (returnTo !== "/files") params.set("returnTo", returnTo);
  return params.size ? `?${params}` : "?";
}

export function FilePreviewDialog({ preview, closeHref }: { preview: FilePreviewData; closeHref: string }) {
  const { t } = useTranslation("files");
  const footer = (
    <>
      {preview.analysable ? (
        <Link to={`/files/${preview.fileId}/analyze`} className="btn btn-ghost btn-sm">
          {t("analyse")}
        </Link>
      ) : null}
      <a href={`/api/file-uploads/${preview.fileId}/download`} download="downloaded-file" className="btn btn-ghost btn-sm">
        {t("download")}
      </a>
      <Link to={closeHref} className="btn btn-primary btn-sm" preventScrollReset replace>
        {t("common:close")}
      </Link>
    </>
  );
  return (
    <Dialog title={`${t("previewTitle")}: ${preview.fileName}`} closeHref={closeHref} size="xl" footer={footer} focusKey={preview.sheet}>
      {preview.refused ? (
        <div role="alert" className="alert alert-warning">
          <div>
            <p className="font-semibold">{t("previewRefusedHeading")}</p>
            <p>{preview.refused}</p>
          </div>
        </div>
      ) : preview.kind === "pdf" ? (
        <PdfFrame fileId={preview.fileId} fileName={preview.fileName} />
      ) : (
        <SheetPreview preview={preview} returnTo={closeHref} />
      )}
    </Dialog>
  );
}

function PdfFrame({ fileId, fileName }: { fileId: number; fileName: string }) {
  const { t } = useTranslation("files");
  const src = `/files/${fileId}/inline`;
  return (
    <div className="flex h-full flex-col gap-2">
      {/* The PDF's own answer carries a policy without scripts; the frame adds no permissions of its own. */}
      <iframe src={src} title={t("pdfFrameTitle", { name: fileName })} className="h-[70vh] w-full rounded-box border border-base-300 bg-base-200" />
      <a href={src} target="_blank" rel="noopener" className="link link-primary self-start text-sm">
        {t("pdfOpen")}
      </a>
    </div>
  );
}

function SheetPreview({ preview, returnTo }: { preview: FilePreviewData; returnTo: string }) {
  const { t } = useTranslation("files");
  const tabsId = useId();
  const noteId = useId();
  const width = Math.max(0, ...preview.rows.map((r) => r.length));
  return (
    <div className="flex flex-col gap-3">
      {preview.sheets.length > 1 ? (
        <nav aria-labelledby={tabsId}>
          <h3 id={tabsId} className="sr-only">
            {t("sheets")}
          </h3>
          <ul className="flex flex-wrap gap-1 border-b border-base-300">
            {preview.sheets.map((name, index) => (
              <li key={index}>
                <Link
                  to={sheetHref(index, returnTo)}
                  replace
                  preventScrollReset
                  aria-current={index === preview.sheet ? "page" : undefined}
                  className={`-mb-px inline-block rounded-t-box border px-3 py-1.5 text-sm ${
                    index === preview.sheet ? "border-base-300 border-b-base-100 bg-base-100 font-semibold" : "border-transparent link-hover"
                  }`}
                >
                  {name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p id={noteId} className="text-sm text-base-content/70">
        {t("previewRowsNote", { count: preview.previewRows })}
      </p>
      {preview.rows.length === 0 ? (
        <p>{t("emptySheet")}</p>
      ) : (
        <TableScroll className="rounded-box border border-base-300" labelledBy={noteId}>
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col" className="w-12 text-right">
                  {t("row")}
                </th>
                {Array.from({ length: width }, (_, c) => (
                  <th key={c} scope="col">
                    <abbr title={t("column", { letter: columnLetter(c) })} className="no-underline">
                      {columnLetter(c)}
                    </abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row, r) => (
                <tr key={r}>
                  <th scope="row" className="text-right font-normal text-base-content/70">
                    {r + 1}
                  </th>
                  {row.map((cell, c) => (
                    <td key={c} className="min-w-[8rem] max-w-[18rem] whitespace-pre-wrap break-words align-top">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
