import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { seededDemoFeed } from "~/models/notifications/news-feeds.server";

/**
 * GET /demo-feeds/{name}.xml: the demo world's recorded news feeds (fictional articles, server/seed-data/news), public and
 * read-only, served only while a seeded news feed names them — the news monitor reads them from here like any feed
 * (decision 024). Anything else is a 404.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  const bytes = /^[a-z0-9-]{1,60}\.xml$/.test(file) ? await seededDemoFeed(file) : null;
  if (!bytes) throw notFound();
  const atom = bytes.subarray(0, 600).toString("latin1").includes("http://www.w3.org/2005/Atom");
  return new Response(new Uint8Array(bytes), {
    headers: {
      // No charset: the XML declaration names it (one of the feeds is Windows-1252 on purpose).
      "Content-Type": atom ? "application/atom+xml" : "application/rss+xml",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
