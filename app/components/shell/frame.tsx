import { useTranslation } from "~/translations";

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:btn focus:btn-sm">
      {t("skipToContent")}
    </a>
  );
}

/** A one-time notice from the flash cookie; its value is an i18n key. */
export function Notice({ notice }: { notice: string | null }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <div role="status" className="alert alert-success mx-auto mb-4 max-w-3xl">
      {t(notice)}
    </div>
  );
}
