import path from "node:path";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BASE } from "../helpers/requests";
import { routeModuleFiles, routeSurface, type RouteSurface } from "./surface";
import { buildWorld, changed, SIGN_IN, Store, SUPPLIER_ORG_NUMBER, type OrgData, type Role, type World } from "./world";

/**
 * Every route module of app/routes, called the way a careless or hostile client would: each action
 * with every method, and each API loader, as a visitor, a level-1 and a level-2 user of organisation A
 * and a user of organisation B (with A's ids), with malformed bodies (JSON, text, empty, garbage,
 * broken multipart), NUL characters, lone surrogates, odd ids (" 5", "0x10", "-1", huge), huge
 * strings, unknown intents and off-site `redirectTo`s in every field the route and its schemas name.
 *
 * What must hold for every request:
 * - never a 5xx (a thrown error that is not a Response counts as the 500 Remix would answer);
 * - never a redirect off-site (the Location resolved as a browser would, tabs and backslashes included);
 * - a rejected request (status ≥ 400) changes nothing: every table but sign-in failures (and their lines in the security log), and the files;
 * - nothing stores a NUL character or a lone surrogate;
 * - a visitor or a user of organisation B never changes organisation A's rows, whatever the answer.
 *
 * Cases are generated from each module's source (tests/fuzz/surface.ts), so new routes, intents and
 * fields are fuzzed without editing this file. Random strings come from fast-check with a fixed seed.
 * Every broken case is collected, and one assertion lists them all, grouped by route.
 */

const ROUTES_DIR = path.resolve("app/routes");
const SEED = 20250108;
const ORIGIN = new URL(BASE).origin;

type RouteFn = (args: ActionFunctionArgs & LoaderFunctionArgs) => unknown;

interface Case {
  route: string;
  kind: "action" | "loader";
  method: string;
  role: Role;
  input: string;
  path: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  /** Made per call: a request body can be read once. */
  body?: () => BodyInit;
}

interface Failure {
  route: string;
  method: string;
  role: string;
  input: string;
  problem: string;
}

// ——— values ————————————————————————————————————————————————————————————————

const RANDOM_STRINGS: [string, string][] = fc
  .sample(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 3 }),
      fc.string({ unit: fc.constantFrom("\u0000", "\r", "\n", "\t", "%", "/", "\\", '"', "'", "<", ">", "&", "=", ";", "é", "😀"), maxLength: 12 }),
    ),
    { seed: SEED, numRuns: 4 },
  )
  .map((value, i) => [`random string #${i + 1} ${JSON.stringify(value)}`, value]);

/** Text an attacker or a broken client sends in any field. */
const STRING_VARIANTS: [string, string][] = [
  ["NUL inside", "fuzz\u0000text"],
  ["only NUL", "\u0000"],
  ["lone high surrogate", "fuzz\ud800text"],
  ["lone low surrogate", "\udc00"],
  ['" 5"', " 5"],
  ['"0x10"', "0x10"],
  ['"-1"', "-1"],
  ['"0"', "0"],
  ['"1e3"', "1e3"],
  ['"2.5"', "2.5"],
  ['"99999999999999999999"', "99999999999999999999"],
  ["empty", ""],
  ["blank", "   "],
  ["100 000 characters", "x".repeat(100_000)],
  ["CR/LF", "/suppliers\r\nSet-Cookie: injected=1"],
  ['"//evil.example"', "//evil.example/phish"],
  ['"/<TAB>/evil.example"', "/\t/evil.example/phish"],
  ['"/\\evil.example"', "/\\evil.example/phish"],
  ['"https://evil.example"', "https://evil.example/phish"],
  ['"javascript:"', "javascript:alert(1)"],
  ["unknown value", "no-such-value"],
  ...RANDOM_STRINGS,
];

/** What only JSON can carry: wrong types. */
const JSON_VARIANTS: [string, unknown][] = [
  ["number -1", -1],
  ["number 2.5", 2.5],
  ["number 1e300", 1e300],
  ["true", true],
  ["null", null],
  ["[]", []],
  ["{}", {}],
  ['[" 5"]', [" 5"]],
  ['["\\u0000"]', ["\u0000"]],
  ['{"$gt": ""}', { $gt: "" }],
];

/**
 * Field names a parser that collects fields into a plain object trips over (`out[name] ??= []` is Object's own
 * method or prototype), alone and behind the prefixes the forms use (`a.<question>`).
 */
const PROTOTYPE_NAMES = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"];
const PROTOTYPE_FIELDS: [string, string][] = PROTOTYPE_NAMES.flatMap((name) => [
  [name, "fuzz"],
  [`a.${name}`, "fuzz"],
  [`${name}[0]`, "fuzz"],
  [`${name}.polluted`, "fuzz"],
]);

const PARAM_VARIANTS: [string, string][] = [
  ['" 5"', " 5"],
  ['"0x10"', "0x10"],
  ['"-1"', "-1"],
  ['"0"', "0"],
  ['"1e3"', "1e3"],
  ['"2.5"', "2.5"],
  ['"99999999999999999999"', "99999999999999999999"],
  ['"abc"', "abc"],
  ["NUL", "5\u0000"],
  ["lone surrogate", "\ud800"],
  ["10 000 characters", "9".repeat(10_000)],
  ["empty", ""],
];

/** A value the route would accept for a field, pointing at `target`'s data. */
function plausible(route: RouteSurface, name: string, target: OrgData, json: boolean): unknown {
  const n = name.toLowerCase();
  const id = (value: number) => (json ? value : String(value));
  if (/redirect|returnto/.test(n)) return "/suppliers";
  if (/^(externalid|orgnr|org_nr|orgnumber|org_number|regno|reg_no)$/.test(n)) return SUPPLIER_ORG_NUMBER;
  if (n.endsWith("ids")) return /tag/.test(n) ? [target.tagId] : [target.connectionId];
  if (n === "newtags") return ["Fuzz tag"];
  if (/^is_/.test(n)) return json ? true : "on";
  if (/connection/.test(n)) return id(target.connectionId);
  if (/tag/.test(n) && /id/.test(n)) return id(target.tagId);
  if (/comment/.test(n) && /id/.test(n)) return id(target.commentId);
  if (/file/.test(n) && /id/.test(n)) return id(target.fileId);
  if (/case/.test(n)) return id(target.casefileId);
  if (/supplier|child|localorg|organizationid/.test(n)) return id(target.supplierOrgId);
  if (n === "person_id") return "1";
  if (n === "id") {
    if (route.file.startsWith("files")) return id(target.fileId);
    if (route.file.startsWith("credit")) return `local:${SUPPLIER_ORG_NUMBER}`;
    return id(target.connectionId);
  }
  if (/email/.test(n)) return SIGN_IN.email;
  if (/password/.test(n)) return SIGN_IN.password;
  if (/language|lang/.test(n)) return route.file.includes("credit") ? "EN" : "no";
  if (n === "status") return "closed";
  if (n === "priority") return json ? 3 : "3";
  if (n === "expanded") return "true";
  if (n === "terms") return "on";
  if (n === "idempotencykey") return "0123456789abcdef0123456789abcdef";
  if (/country/.test(n)) return "NO";
  if (n === "limit") return "10";
  if (n === "fraction") return "0.5";
  if (n === "minriskscore") return "20";
  if (n === "token") return "not-a-real-token";
  if (n === "companyname") return "FUZZ SUPPLIER AS";
  if (n === "connectid") return `local:${SUPPLIER_ORG_NUMBER}`;
  return "Fuzz text";
}

/** A route param's value for `target`'s data: by the param's name, or for `$id` by the segment before it. */
function paramValue(route: RouteSurface, param: string, target: OrgData): string {
  if (param === "*") return "fuzz/path";
  if (param !== "id") return String(plausible(route, param, target, false));
  const before = route.pattern.split("/").slice(0, route.pattern.split("/").indexOf(":id")).pop() ?? "";
  if (/connection/.test(before)) return String(target.connectionId);
  if (/comment/.test(before)) return String(target.commentId);
  if (/file/.test(before)) return String(target.fileId);
  if (/tag/.test(before)) return String(target.tagId);
  if (/case/.test(before)) return String(target.casefileId);
  return "1";
}

/** The URL path for the params (Remix hands the route its params decoded; the path only has to be a plausible one). */
function fillPath(pattern: string, params: Record<string, string>): string {
  const encode = (value: string) => {
    try {
      return encodeURIComponent(value);
    } catch {
      return "0"; // a lone surrogate has no URL form
    }
  };
  return pattern
    .split("/")
    .map((segment) => (segment === "*" ? encode(params["*"] ?? "") : segment.startsWith(":") ? encode(params[segment.slice(1)] ?? "") : segment))
    .join("/");
}

function queryString(entries: [string, string][]): string {
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : "";
}

function formBody(entries: [string, string][]): () => BodyInit {
  return () => new URLSearchParams(entries);
}

/** The fields as multipart/form-data (the Request sets the boundary), with a file part. */
function multipartBody(entries: [string, string][], fileName: string): () => BodyInit {
  return () => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    data.append("file", new Blob(["fuzz file content"], { type: "application/pdf" }), fileName);
    return data;
  };
}

// ——— cases ————————————————————————————————————————————————————————————————

function credentials(role: Role, route: RouteSurface): Record<string, string> {
  if (!role.token) return {};
  // The API is called with a Bearer token (not cookie-bound); pages with the cookie, from this site.
  if (route.isApi) return { Authorization: `Bearer ${role.token}` };
  return { Cookie: `token=${role.token}`, Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" };
}

function actionCases(route: RouteSurface, world: World): Case[] {
  const cases: Case[] = [];
  const methods = route.methods.length ? route.methods : ["POST"];
  const json = route.readsJson;
  const fields = [...new Set([...route.fields, ...(route.isApi ? [] : ["redirectTo"])])];
  // Intents belong to forms; a JSON endpoint that imports a module with form schemas takes none.
  const intents: [string, string[]][] = route.intents.size && !json ? [...route.intents] : [["", fields]];

  for (const role of world.roles) {
    const deep = role.name === "level-2 of A";
    const target = world.a;
    const params = Object.fromEntries(route.params.map((p) => [p, paramValue(route, p, target)]));
    const query: [string, string][] = route.query.map((q) => [q, String(plausible(route, q, target, false))]);
    const base = { route: route.file, kind: "action" as const, role, params, path: fillPath(route.pattern, params) + queryString(query) };
    const headers = credentials(role, route);
    const add = (method: string, input: string, contentType: string | null, body: (() => BodyInit) | undefined, extra: Partial<Case> = {}) =>
      cases.push({ ...base, method, input, headers: { ...headers, ...(contentType ? { "Content-Type": contentType } : {}) }, body, ...extra });

    const formOf = (intent: string, intentFields: string[], override?: [string, string]): [string, string][] => {
      const entries: [string, string][] = [];
      if (intent) entries.push(["intent", intent]);
      for (const field of [...new Set([...intentFields, ...(route.isApi ? [] : ["redirectTo"])])]) {
        entries.push([field, override?.[0] === field ? override[1] : String(plausible(route, field, target, false))]);
      }
      return entries;
    };
    const jsonOf = (names: string[], override?: [string, unknown]) =>
      JSON.stringify(Object.fromEntries(names.map((f) => [f, override?.[0] === f ? override[1] : plausible(route, f, target, true)])));

    for (const method of methods) {
      // Malformed bodies.
      const firstIntent = intents[0][0];
      const sample = `${firstIntent ? `intent=${firstIntent}&` : ""}text=fuzz`;
      add(method, "empty body (form content type)", "application/x-www-form-urlencoded", () => "");
      add(method, "empty body (JSON content type)", "application/json", () => "");
      add(method, "JSON body", "application/json", () => JSON.stringify({ intent: firstIntent, text: "fuzz" }));
      add(method, "text/plain body", "text/plain", () => sample);
      add(method, "malformed percent-encoding", "application/x-www-form-urlencoded", () => "intent=%ZZ&text=%E0%A4%A");
      add(method, "invalid UTF-8 bytes", "application/x-www-form-urlencoded", () => new Uint8Array([0x69, 0x3d, 0xff, 0xfe, 0x26, 0x74, 0x3d, 0xc3]));
      add(method, "no Content-Type", null, () => new TextEncoder().encode(sample));
      add(method, "multipart with a broken boundary", "multipart/form-data; boundary=fuzz", () => "--nope\r\ngarbage");
      add(method, "multipart without a boundary", "multipart/form-data", () => "garbage");
      add(method, "malformed JSON", "application/json", () => '{"intent": ');
      add(method, "JSON array", "application/json", () => "[]");
      add(method, "JSON null", "application/json", () => "null");
      add(method, "deeply nested JSON", "application/json", () => "[".repeat(5000) + "]".repeat(5000));
      if (role.name === "visitor") {
        add(method, "malformed token cookie", "application/x-www-form-urlencoded", formBody(formOf(firstIntent, intents[0][1])), {
          headers: { Cookie: "token=%ZZ", "Content-Type": "application/x-www-form-urlencoded" },
        });
      }

      // Each intent as the page would send it, an unknown one, none.
      for (const [intent, intentFields] of intents) {
        if (json) {
          add(method, `JSON with every field${intent ? ` (intent ${intent})` : ""}`, "application/json", () => jsonOf(fields));
        } else {
          add(method, intent ? `intent ${intent}` : "the form's fields", "application/x-www-form-urlencoded", formBody(formOf(intent, intentFields)));
          add(method, `${intent ? `intent ${intent}` : "the form's fields"} as multipart`, null, multipartBody(formOf(intent, intentFields), "fuzz.pdf"));
        }
      }
      if (route.intents.size && !json) {
        add(
          method,
          "unknown intent",
          "application/x-www-form-urlencoded",
          formBody([
            ["intent", "no-such-intent"],
            ["redirectTo", "/suppliers"],
          ]),
        );
        add(method, "no intent", "application/x-www-form-urlencoded", formBody([["redirectTo", "/suppliers"]]));
      }
      if (json) for (const field of fields) add(method, `JSON with only ${field}`, "application/json", () => jsonOf([field]));

      // The other roles meet A's data as sent above; the level-2 user of A, who passes every check of the
      // permission table, gets every field of every intent with every variant, B's ids among them.
      if (!deep) continue;
      for (const [intent, intentFields] of intents) {
        const names = json ? fields : [...new Set([...intentFields, ...(route.isApi ? [] : ["redirectTo"])])];
        for (const field of names) {
          const variants: [string, unknown][] = [
            ...STRING_VARIANTS,
            ...(json ? JSON_VARIANTS : []),
            ["organisation B's id", plausible(route, field, world.b, json)],
          ];
          for (const [label, value] of variants) {
            const input = `${intent ? `intent ${intent}, ` : ""}${field} = ${label}`;
            if (json) {
              add(method, `JSON ${input}`, "application/json", () => jsonOf(fields, [field, value]));
              add(method, `JSON with only ${field} = ${label}`, "application/json", () => jsonOf([field], [field, value]));
            } else if (typeof value === "string") {
              add(method, input, "application/x-www-form-urlencoded", formBody(formOf(intent, intentFields, [field, value])));
            }
          }
        }
      }
      // Field names that are Object's own properties, beside the intent's fields; JSON that sets `__proto__`.
      for (const [intent, intentFields] of intents) {
        const label = intent ? `intent ${intent}, ` : "";
        if (json) {
          add(method, `JSON ${label}with __proto__ and constructor keys`, "application/json", () =>
            jsonOf(fields).replace(/^\{/, '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},'),
          );
        } else {
          add(
            method,
            `${label}fields named like Object's own properties`,
            "application/x-www-form-urlencoded",
            formBody([...formOf(intent, intentFields), ...PROTOTYPE_FIELDS]),
          );
        }
      }
      // A file whose name no file system should see, where the route takes multipart.
      if (!json) {
        for (const [label, fileName] of [
          ["NUL", "a\u0000b.pdf"],
          ["CR/LF", "a\r\nContent-Type: text/html.pdf"],
          ["path", "../../../etc/passwd"],
          ["quotes and semicolons", 'a";b=c;.pdf'],
          ["lone surrogate", "a\ud800.pdf"],
          ["300 characters", `${"n".repeat(300)}.pdf`],
        ]) {
          add(method, `multipart, file name ${label}`, null, multipartBody(formOf(intents[0][0], intents[0][1]), fileName));
        }
      }
      // Route params.
      for (const param of route.params) {
        for (const [label, value] of [...PARAM_VARIANTS, ["organisation B's id", paramValue(route, param, world.b)] as [string, string]]) {
          const p = { ...params, [param]: value };
          const body = json ? () => jsonOf(fields) : formBody(formOf(intents[0][0], intents[0][1]));
          add(method, `param ${param} = ${label}`, json ? "application/json" : "application/x-www-form-urlencoded", body, {
            params: p,
            path: fillPath(route.pattern, p) + queryString(query),
          });
        }
      }
    }
    // The methods the route does not take.
    for (const method of ["POST", "PUT", "PATCH", "DELETE"].filter((m) => !methods.includes(m))) {
      add(
        method,
        "a method the route does not take",
        json ? "application/json" : "application/x-www-form-urlencoded",
        json ? () => jsonOf(fields) : formBody(formOf(intents[0][0], intents[0][1])),
      );
    }
  }
  return cases;
}

function loaderCases(route: RouteSurface, world: World): Case[] {
  const cases: Case[] = [];
  const names = [...new Set([...route.query, ...route.fields])];
  for (const role of world.roles) {
    const target = world.a;
    const params = Object.fromEntries(route.params.map((p) => [p, paramValue(route, p, target)]));
    const query: [string, string][] = names.map((q) => [q, String(plausible(route, q, target, false))]);
    const at = (p: Record<string, string>, q: [string, string][]) => fillPath(route.pattern, p) + queryString(q);
    const base = { route: route.file, kind: "loader" as const, method: "GET", role, params, headers: credentials(role, route) };
    cases.push({ ...base, input: "plausible query", path: at(params, query) });
    cases.push({ ...base, input: "no query", path: at(params, []) });
    if (role.name === "visitor") cases.push({ ...base, input: "malformed token cookie", path: at(params, query), headers: { Cookie: "token=%ZZ" } });
    if (role.name !== "level-2 of A") continue;
    for (const name of names) {
      for (const [label, value] of STRING_VARIANTS) {
        cases.push({
          ...base,
          input: `query ${name} = ${label}`,
          path: at(
            params,
            query.map(([k, v]) => [k, k === name ? value : v]),
          ),
        });
      }
      cases.push({ ...base, input: `query ${name} twice`, path: at(params, [...query, [name, "2"]]) });
    }
    for (const param of route.params) {
      for (const [label, value] of [...PARAM_VARIANTS, ["organisation B's id", paramValue(route, param, world.b)] as [string, string]]) {
        cases.push({ ...base, input: `param ${param} = ${label}`, params: { ...params, [param]: value }, path: at({ ...params, [param]: value }, query) });
      }
    }
  }
  return cases;
}

// ——— running ————————————————————————————————————————————————————————————————

interface Outcome {
  status: number;
  location: string | null;
  error?: string;
}

async function run(fn: RouteFn, c: Case): Promise<Outcome> {
  let request: Request;
  try {
    const init: RequestInit = { method: c.method, headers: c.headers };
    if (c.body) init.body = c.body();
    request = new Request(BASE + c.path, init);
  } catch (error) {
    // A request no client can send (the Fetch API refuses it): not the route's business.
    return { status: 0, location: null, error: `not sendable: ${(error as Error).message}` };
  }
  const args = { request, params: c.params, context: { clientAddress: "127.0.0.1" } };
  try {
    const result = await fn(args);
    if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
    return { status: 200, location: null };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const error = thrown as Error;
    return { status: 500, location: null, error: `${error?.name ?? "Error"}: ${String(error?.message ?? thrown).slice(0, 160)}` };
  }
}

function offSite(location: string): boolean {
  try {
    return new URL(location, BASE).origin !== ORIGIN;
  } catch {
    return true;
  }
}

/** Control characters and surrogates written as escapes, so the report prints what was sent. */
function visible(text: string): string {
  let shown = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    shown += code < 0x20 || (code >= 0xd800 && code <= 0xdfff) ? `\\u${code.toString(16).padStart(4, "0")}` : text[i];
  }
  return shown;
}

/** One readable block per route: each distinct problem, then the cases that show it. */
function report(failures: Failure[], total: number): string {
  const byRoute = new Map<string, Map<string, string[]>>();
  for (const f of failures) {
    const problems = byRoute.get(f.route) ?? new Map<string, string[]>();
    byRoute.set(f.route, problems);
    const list = problems.get(f.problem) ?? [];
    problems.set(f.problem, list);
    list.push(`${f.method} as ${f.role}: ${f.input}`);
  }
  const lines = [`${failures.length} of ${total} requests broke a rule, in ${byRoute.size} route modules:`];
  for (const [route, problems] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push("", `app/routes/${route}`);
    for (const [problem, list] of problems) {
      lines.push(`  ${visible(problem)} — ${list.length} case(s):`);
      const shown = list.slice(0, 12);
      for (const line of shown) lines.push(`    · ${visible(line)}`);
      if (list.length > shown.length) lines.push(`    · … and ${list.length - shown.length} more`);
    }
  }
  return lines.join("\n");
}

describe("every route, fed malformed and hostile input by every role", () => {
  let world: World;
  let store: Store;

  beforeAll(async () => {
    world = await buildWorld();
    store = new Store(process.env.DATA_DIR!, process.env.DATABASE_FILE!, world.a.orgId);
    store.snapshot();
  });

  afterAll(async () => {
    store?.close();
  });

  it("answers no 5xx, redirects only on-site, and changes nothing when it refuses", { timeout: 120_000 }, async () => {
    const files = routeModuleFiles(ROUTES_DIR);
    expect(files.length).toBeGreaterThan(40);
    // Routes log what they refuse or fail on; what was logged is shown with a failing case, not a failure of its own.
    const logged: string[] = [];
    const consoleSpies = (["error", "warn"] as const).map((level) =>
      vi
        .spyOn(console, level)
        .mockImplementation((...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(" "))),
    );

    const failures: Failure[] = [];
    let total = 0;
    const unsendable: string[] = [];
    const routesCalled = new Set<string>();
    let before = store.fingerprint();
    for (const file of files) {
      const module = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as { action?: RouteFn; loader?: RouteFn };
      const surface = routeSurface(file);
      const cases = [...(module.action ? actionCases(surface, world) : []), ...(module.loader && surface.isApi ? loaderCases(surface, world) : [])];
      const started = Date.now();
      let restores = 0;
      for (const c of cases) {
        const fn = (c.kind === "action" ? module.action : module.loader)!;
        logged.length = 0;
        store.forgetSignInFailures();
        const outcome = await run(fn, c);
        if (outcome.status === 0) {
          unsendable.push(`${file} ${c.method} ${c.input}: ${outcome.error}`);
          continue;
        }
        total++;
        routesCalled.add(file);
        const after = store.fingerprint();
        const fail = (problem: string) => failures.push({ route: file, method: c.method, role: c.role.name, input: c.input, problem });
        if (outcome.status >= 500) {
          const why = outcome.error ?? logged.find((l) => l.trim()) ?? "";
          fail(`${outcome.status}${why ? ` (${visible(why).slice(0, 160)})` : ""}`);
        }
        if (outcome.location !== null && outcome.status >= 300 && outcome.status < 400 && offSite(outcome.location)) {
          fail(`redirect off-site: Location ${JSON.stringify(outcome.location)}`);
        }
        const changedTables = changed(before.all, after.all);
        if (outcome.status >= 400 && changedTables.length) fail(`refused with ${outcome.status} but changed ${changedTables.join(", ")}`);
        const changedOfA = changed(before.ofA, after.ofA);
        if ((c.role.name === "visitor" || c.role.name === "user of B") && changedOfA.length) {
          fail(`${c.role.name} changed organisation A's ${changedOfA.join(", ")} (answered ${outcome.status})`);
        }
        // Back to the snapshot when a row the world was built with changed or went (a deleted tag, a signed-out
        // session, a broken refusal), so the next case meets the same data; rows only added can stay.
        const garbage = changedTables.length ? store.storedGarbage(changedTables) : [];
        if (garbage.length) fail(`stored ${garbage.join(", ")} (answered ${outcome.status})`);
        const changedWorld = changed(before.snapshotRows, after.snapshotRows);
        if (changedWorld.length || garbage.length || (outcome.status >= 400 && changedTables.length)) {
          store.restore([...new Set([...changedTables, ...changedOfA, ...changedWorld])]);
          restores++;
          before = store.fingerprint();
        } else before = after;
      }
      if (process.env.FUZZ_DEBUG) process.stdout.write(`${file}: ${cases.length} cases, ${restores} restores, ${Date.now() - started} ms\n`);
    }
    consoleSpies.forEach((spy) => spy.mockRestore());

    // Guards the test itself: every module with an action or an API loader was called, with thousands of inputs.
    expect(routesCalled.size).toBeGreaterThan(30);
    expect(total).toBeGreaterThan(2000);
    expect(unsendable, "cases the test could not build as a Request").toEqual([]);
    expect(failures.length, report(failures, total)).toBe(0);
    // No request reached Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
