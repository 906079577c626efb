import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Icon } from "~/components/ui/icons";
import type { CreditDialogData } from "./CreditDialog";

type Terms = NonNullable<CreditDialogData["terms"]>;

const TITLE_ID = "credit-terms-title";

/**
 * What the terms dialog does once scripts run. It opens over the order
 * dialog, so it cannot use useModal (whose clean-up would wake the page the
 * order dialog keeps inert): it makes only its siblings in the order dialog
 * inert, takes Escape before the order dialog sees it, and hands focus back
 * to the link that opened it.
 */
function useTermsModal(ref: React.RefObject<HTMLElement>, close: () => void, language: string) {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const made: Element[] = [];
    for (const sibling of Array.from(dialog.parentElement?.children ?? [])) {
      if (sibling === dialog || sibling.hasAttribute("inert") || sibling.tagName === "STYLE") continue;
      sibling.setAttribute("inert", "");
      made.push(sibling);
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      closeRef.current();
    };
    // Capture phase: before the order dialog's own Escape (which closes everything).
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      for (const el of made) el.removeAttribute("inert");
      if (opener?.isConnected && opener !== document.body) opener.focus({ preventScroll: true });
    };
  }, [ref]);
  useEffect(() => {
    ref.current?.focus();
  }, [ref, language]);
}

/**
 * The credit report user agreement over the order dialog (`terms=en|no`):
 * EN/NO toggle (links), title, subtitle, numbered sections, the matching PDF
 * and close (drops `terms`). The text is the loader's, in the chosen
 * language whatever the interface language is; the PDFs in public/ are
 * generated from the same text (npm run agreements).
 */
export function CreditTermsDialog({ terms, hrefFor, closeHref }: { terms: Terms; hrefFor: (language: "en" | "no") => string; closeHref: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useTermsModal(ref, () => navigate(closeHref, { replace: true, preventScrollReset: true }), terms.language);
  const lang = terms.language === "no" ? "nb" : "en";

  return (
    <div
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-labelledby={TITLE_ID}
      lang={lang}
      tabIndex={-1}
      className="fixed inset-0 z-[60] overflow-y-auto overscroll-contain bg-black/50 p-2 outline-none sm:p-6"
    >
      <Link to={closeHref} replace preventScrollReset aria-hidden="true" tabIndex={-1} className="fixed inset-0 cursor-default" />
      <div className="relative mx-auto flex max-w-3xl flex-col rounded-box bg-base-100 shadow-2xl">
        <header className="sticky top-0 z-10 flex items-center gap-3 rounded-t-box border-b border-base-300 bg-base-100 px-5 py-3">
          <nav aria-label={terms.languageLabel} className="join">
            {(["en", "no"] as const).map((code) => (
              <Link
                key={code}
                to={hrefFor(code)}
                replace
                preventScrollReset
                lang={code === "no" ? "nb" : "en"}
                aria-current={terms.language === code ? "true" : undefined}
                className={`btn join-item btn-sm ${terms.language === code ? "btn-primary" : "btn-outline"}`}
              >
                {terms.toggle[code]}
              </Link>
            ))}
          </nav>
          <span className="flex-1" />
          <a href={terms.pdf} download className="btn btn-ghost btn-sm">
            {terms.download}
          </a>
          <Link to={closeHref} replace preventScrollReset aria-label={terms.close} title={terms.close} className="btn btn-ghost btn-sm btn-square">
            <Icon name="x" />
          </Link>
        </header>
        <div className="px-6 pb-8 pt-5">
          <h2 id={TITLE_ID} className="text-xl font-semibold">
            {terms.title}
          </h2>
          <p className="mt-1 text-base-content/75">{terms.subtitle}</p>
          <ol className="mt-6 flex flex-col gap-5">
            {terms.sections.map((section, index) => (
              <li key={section.heading}>
                <h3 className="font-semibold">
                  {index + 1}. {section.heading}
                </h3>
                {section.body.split(/\n{2,}/).map((paragraph) => (
                  <p key={paragraph.slice(0, 40)} className="mt-1.5 text-sm leading-relaxed text-base-content/90">
                    {paragraph}
                  </p>
                ))}
              </li>
            ))}
          </ol>
        </div>
      </div>
    </div>
  );
}
