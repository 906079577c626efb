import { Link } from "@remix-run/react";
import { Dialog } from "~/components/ui/Dialog";
import type { CreditDialogData } from "./CreditDialog";

type Terms = NonNullable<CreditDialogData["terms"]>;

/**
 * The credit report user agreement over the order dialog (`terms=en|no`, a
 * dialog of layer 2 inside it, so Escape closes the terms only): EN/NO
 * toggle (links), title, subtitle, numbered sections, the matching PDF and
 * close (drops `terms`). The text is the loader's, in the chosen language
 * whatever the interface language is; the PDFs in public/ are generated from
 * the same text (npm run agreements).
 */
export function CreditTermsDialog({ terms, hrefFor, closeHref }: { terms: Terms; hrefFor: (language: "en" | "no") => string; closeHref: string }) {
  return (
    <Dialog
      title={terms.title}
      closeHref={closeHref}
      closeLabel={terms.close}
      size="xl"
      layer={2}
      lang={terms.language === "no" ? "nb" : "en"}
      focusKey={terms.language}
    >
      <div className="flex flex-wrap items-center gap-3">
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
      </div>
      <p className="mt-4 text-base-content/75">{terms.subtitle}</p>
      <ol className="mt-6 flex flex-col gap-5 pb-4">
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
    </Dialog>
  );
}
