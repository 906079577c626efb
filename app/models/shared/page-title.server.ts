import i18nServer from "~/i18n.server";

/** "{screen} · {product}" in the request's language. */
export async function pageTitle(request: Request, key: string): Promise<string> {
  const t = await i18nServer.getFixedT(request);
  return `${t(key)} · ${t("common:appName")}`;
}
