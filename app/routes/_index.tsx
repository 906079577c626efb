import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { titleMeta } from "~/components/ui/meta";
import i18nServer from "~/i18n.server";
import { getUser } from "~/http/auth.server";

export const meta = titleMeta;

/** The landing page for visitors; signed-in users start at /overview. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/overview");
  const t = await i18nServer.getFixedT(request);
  return json({ title: `${t("appName")} · ${t("tagline")}` });
}

const features = ["monitor", "assess", "comply"] as const;

export default function Landing() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-5xl">
      <section className="py-12 text-center">
        <p className="text-sm font-semibold uppercase tracking-wider text-primary">{t("tagline")}</p>
        <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold leading-tight">{t("landing.title")}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-base-content/70">{t("landing.lead")}</p>
        <div className="mt-8 flex justify-center gap-3">
          <Link to="/login" className="btn btn-primary">
            {t("landing.signIn")}
          </Link>
          <Link to="/signup" className="btn btn-outline">
            {t("landing.signUp")}
          </Link>
        </div>
      </section>
      <section className="grid gap-4 md:grid-cols-3">
        {features.map((f) => (
          <article key={f} className="rounded-box border border-base-300 bg-base-100 p-6">
            <h2 className="text-lg font-semibold">{t(`landing.features.${f}.title`)}</h2>
            <p className="mt-2 text-sm text-base-content/70">{t(`landing.features.${f}.text`)}</p>
          </article>
        ))}
      </section>
    </div>
  );
}
