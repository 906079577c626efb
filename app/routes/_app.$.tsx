import type { LoaderFunctionArgs } from "@remix-run/node";

/** Any path no route claims: a 404 that the root error boundary renders. */
export function loader({ request }: LoaderFunctionArgs) {
  throw new Response("Not Found", { status: 404, statusText: new URL(request.url).pathname });
}

export default function NotFound() {
  return null;
}
