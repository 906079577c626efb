import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * What a route module offers to a client, read from its source with the TypeScript parser, so the
 * fuzz test follows the routes as they change instead of a hand-kept list: its URL and params (from
 * the file name, Remix flat routes), the methods it names, whether it reads JSON, the form intents
 * and field names it and the modules it imports declare, and the query parameters it reads.
 */
export interface RouteSurface {
  /** The file name under app/routes. */
  file: string;
  /** The URL path with `:param` placeholders (`*` for a splat). */
  pattern: string;
  /** Route params in path order (`*` for a splat). */
  params: string[];
  isApi: boolean;
  /** Methods other than GET the module names (`request.method !== "PATCH"`, methodNotAllowed([…])). */
  methods: string[];
  readsJson: boolean;
  /** Each intent and the fields its schema declares ([] when only the intent's name is known). */
  intents: Map<string, string[]>;
  /** Every form or JSON field name the module or its imports name. */
  fields: string[];
  /** Query parameters the module reads. */
  query: string[];
}

const APP = path.resolve("app");
const SERVER = path.resolve("server");
const HTTP_METHODS = ["POST", "PUT", "PATCH", "DELETE"];
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Every route module under app/routes, as its path there: `login.tsx`, or `<name>/route.tsx` for a folder route (the
 * folder's other files are not routes).
 */
export function routeModuleFiles(): string[] {
  const dir = path.join(APP, "routes");
  const isModule = (f: string) => /\.(tsx?|jsx?)$/.test(f) && !/\.test\./.test(f);
  return fs.readdirSync(dir).flatMap((entry) => {
    if (!fs.statSync(path.join(dir, entry)).isDirectory()) return isModule(entry) ? [entry] : [];
    return fs
      .readdirSync(path.join(dir, entry))
      .filter((f) => /^route\.(tsx?|jsx?)$/.test(f))
      .map((f) => `${entry}/${f}`);
  });
}

/** Remix v2 flat routes: `.` is `/`, `$name` a param, `$` a splat, `[.]` a literal dot, `_index` the index. */
export function routePattern(file: string): { pattern: string; params: string[] } {
  const base = file.replace(/\/route\.(tsx?|jsx?)$/, "").replace(/\.(tsx?|jsx?)$/, "");
  const segments: string[] = [];
  const params: string[] = [];
  for (const raw of base.split(/(?<!\[)\.(?![^[]*\])/)) {
    const segment = raw.replace(/\[(.)\]/g, "$1");
    if (segment === "_index") continue;
    if (segment === "$") {
      params.push("*");
      segments.push("*");
    } else if (segment.startsWith("$")) {
      params.push(segment.slice(1));
      segments.push(`:${segment.slice(1)}`);
    } else if (!segment.startsWith("_")) segments.push(segment.replace(/_$/, ""));
  }
  return { pattern: `/${segments.join("/")}`, params };
}

function resolveImport(from: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("~/")) target = path.join(APP, specifier.slice(2));
  else if (specifier.startsWith("@server/")) target = path.join(SERVER, specifier.slice("@server/".length));
  else if (specifier.startsWith(".")) target = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface Scan {
  intents: Map<string, string[]>;
  /** Keys of zod object schemas. */
  schemaFields: Set<string>;
  /** Fields read from a form or body (`formData.get("x")`) and form controls' names (`<input name="x">`). */
  fields: Set<string>;
  query: Set<string>;
  methods: Set<string>;
  imports: string[];
  readsJson: boolean;
}

function stringOf(node: ts.Node | undefined): string | null {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;
}

function propertyKey(property: ts.ObjectLiteralElementLike): string | null {
  if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) return null;
  const name = property.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;
}

/** `z.object({…})` (or any `.object({…})` / `.extend({…})`): the keys of its shape. */
function zodShape(node: ts.CallExpression): ts.ObjectLiteralExpression | null {
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || !["object", "strictObject", "looseObject", "extend"].includes(callee.name.text)) return null;
  const shape = node.arguments[0];
  return shape && ts.isObjectLiteralExpression(shape) ? shape : null;
}

function scanFile(file: string): Scan {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const scan: Scan = { intents: new Map(), schemaFields: new Set(), fields: new Set(), query: new Set(), methods: new Set(), imports: [], readsJson: false };
  const addIntent = (intent: string, fields: string[] = []) => {
    const known = scan.intents.get(intent) ?? [];
    scan.intents.set(intent, [...new Set([...known, ...fields])]);
  };

  // Intents named as constants (`const INTENT = { addQuestion: "add-question" } as const`): `INTENT.addQuestion` reads
  // as its value wherever a schema names it.
  const named = new Map<string, string>();
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && /^[A-Z_]*INTENTS?$/.test(node.name.text) && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (ts.isObjectLiteralExpression(init))
        for (const property of init.properties) {
          const key = propertyKey(property);
          const value = ts.isPropertyAssignment(property) ? stringOf(property.initializer) : null;
          if (key && value) named.set(`${node.name.text}.${key}`, value);
        }
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const intentOf = (node: ts.Node | undefined) =>
    stringOf(node) ?? (node && ts.isPropertyAccessExpression(node) ? (named.get(node.getText(source)) ?? null) : null);

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const specifier = stringOf(node.moduleSpecifier);
      const resolved = specifier && !node.importClause?.isTypeOnly ? resolveImport(file, specifier) : null;
      if (resolved) scan.imports.push(resolved);
    }
    if (ts.isCallExpression(node)) {
      const shape = zodShape(node);
      if (shape) {
        const keys = shape.properties.map(propertyKey).filter((key): key is string => key !== null);
        keys.forEach((key) => scan.schemaFields.add(key));
        const intentProperty = shape.properties.find((p) => propertyKey(p) === "intent");
        if (intentProperty && ts.isPropertyAssignment(intentProperty)) {
          // intent: z.literal("save") or z.enum(["a", "b"])
          const init = intentProperty.initializer;
          if (ts.isCallExpression(init)) {
            const literal = intentOf(init.arguments[0]);
            if (literal)
              addIntent(
                literal,
                keys.filter((key) => key !== "intent"),
              );
            const list = init.arguments[0];
            if (list && ts.isArrayLiteralExpression(list))
              list.elements.forEach(
                (e) =>
                  intentOf(e) &&
                  addIntent(
                    intentOf(e)!,
                    keys.filter((k) => k !== "intent"),
                  ),
              );
          }
        }
      }
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee)) {
        const method = callee.name.text;
        const target = callee.expression.getText(source);
        const arg = stringOf(node.arguments[0]);
        if ((method === "get" || method === "getAll" || method === "has") && arg && FIELD_NAME.test(arg)) {
          if (/searchParams|query|url/i.test(target)) scan.query.add(arg);
          else if (/form|data|body|fields|submission/i.test(target)) scan.fields.add(arg);
        }
        if (method === "json" && /request/.test(target)) scan.readsJson = true;
      }
      const calleeName = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : "";
      if (/^(readJson|parseJsonBody)$/.test(calleeName)) scan.readsJson = true;
      if (calleeName === "methodNotAllowed") {
        const list = node.arguments[0];
        if (list && ts.isArrayLiteralExpression(list)) list.elements.forEach((e) => HTTP_METHODS.includes(stringOf(e) ?? "") && scan.methods.add(stringOf(e)!));
      }
    }
    // request.method !== "PATCH", formData.get("intent") === "create", intent !== "delete"
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
      const [other, literal] = stringOf(node.right) !== null ? [node.left, stringOf(node.right)!] : [node.right, stringOf(node.left)];
      const otherText = other.getText(source);
      if (literal !== null && /\bmethod$/.test(otherText) && HTTP_METHODS.includes(literal.toUpperCase())) scan.methods.add(literal.toUpperCase());
      // The compared value is the intent itself (`intent`, `formData.get("intent")`), not a property of it or its type.
      const isIntent = !ts.isTypeOfExpression(other) && /(^|[.\s(])intent$|get\(["']intent["']\)$/i.test(otherText);
      if (literal !== null && isIntent && FIELD_NAME.test(literal.replace(/-/g, "_"))) addIntent(literal);
    }
    // switch (intent) { case "save": … }
    if (ts.isSwitchStatement(node) && /intent/i.test(node.expression.getText(source))) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause) && stringOf(clause.expression)) addIntent(stringOf(clause.expression)!);
    }
    // <input name="redirectTo" />
    if (ts.isJsxAttribute(node) && ts.isIdentifier(node.name) && node.name.text === "name") {
      const value = node.initializer && ts.isStringLiteral(node.initializer) ? node.initializer.text : null;
      if (value && FIELD_NAME.test(value)) scan.fields.add(value);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return scan;
}

/** The surface of one route module: its own source, plus the schemas and intents of the app modules it imports. */
export function routeSurface(file: string): RouteSurface {
  const full = path.join(APP, "routes", file);
  const own = scanFile(full);
  const intents = new Map(own.intents);
  const fields = new Set([...own.fields, ...own.schemaFields]);
  const query = new Set(own.query);
  for (const imported of own.imports) {
    if (!imported.startsWith(APP)) continue;
    const scan = scanFile(imported);
    // Only what the imported module declares as schemas: its `.get(…)` calls may belong to other routes.
    for (const [intent, intentFields] of scan.intents) intents.set(intent, [...new Set([...(intents.get(intent) ?? []), ...intentFields])]);
    scan.schemaFields.forEach((f) => fields.add(f));
  }
  const { pattern, params } = routePattern(file);
  return {
    file,
    pattern,
    params,
    isApi: pattern.startsWith("/api/") || pattern === "/api",
    methods: [...own.methods],
    readsJson: own.readsJson,
    intents,
    fields: [...fields].filter((f) => f !== "intent").sort(),
    query: [...query].sort(),
  };
}
