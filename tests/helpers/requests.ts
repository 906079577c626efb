import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

export const BASE = "http://localhost:3000";

export function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}

export function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, { headers });
}

export function args(request: Request, clientAddress = "127.0.0.1"): LoaderFunctionArgs & ActionFunctionArgs {
  return { request, params: {}, context: { clientAddress } };
}

/** Runs a loader or action and returns its Response, whether it returned or threw it. */
export async function call(fn: (a: LoaderFunctionArgs) => unknown, a: LoaderFunctionArgs): Promise<Response> {
  try {
    const result = await fn(a);
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result), { status: 200, headers: { "Content-Type": "application/json" } });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export function tokenFrom(response: Response): string | null {
  const match = response.headers.get("Set-Cookie")?.match(/(?:^|,\s*)token=([^;]*)/);
  return match ? match[1] : null;
}
