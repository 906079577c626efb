import type { MetaFunction } from "@remix-run/node";

/** Loaders return a translated `title`; this puts it in the document head. */
export const titleMeta: MetaFunction = ({ data }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return title ? [{ title }] : [];
};
