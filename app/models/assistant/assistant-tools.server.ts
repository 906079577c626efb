import { z } from "zod";
import type { AssistantTool, AssistantViewer } from "@server/providers/llm/types";
import {
  countryByCodeOrName,
  findSupplier,
  highestRiskSuppliers,
  listFollowedSuppliers,
  organizationTags,
  recentChanges,
  supplierFacts,
} from "~/models/assistant/assistant-data.server";
import type { SupplierFilters } from "~/models/assistant/assistant";

/**
 * The functions a language model may call (OpenAI "tools"): the same organisation-scoped data as the local
 * assistant, never SQL. The model's arguments are untrusted: each tool validates them with zod and answers a refusal
 * (`{ error }`) for bad ones rather than throwing; results are compact JSON. The viewer comes from the session, never
 * from the arguments, so a model cannot ask about another organisation's data.
 */

function tool<S extends z.ZodType>(spec: {
  name: string;
  description: string;
  schema: S;
  parameters: Record<string, unknown>;
  run: (args: z.output<S>, viewer: AssistantViewer) => Promise<unknown>;
}): AssistantTool {
  return {
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    async run(args, viewer) {
      const parsed = spec.schema.safeParse(args ?? {});
      if (!parsed.success) {
        return {
          error: `Invalid arguments for ${spec.name}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")}`,
        };
      }
      return spec.run(parsed.data, viewer);
    },
  };
}

const filterSchema = {
  priority: z.boolean().optional(),
  due_diligence: z.boolean().optional(),
  tag: z.string().trim().min(1).max(100).optional(),
  country: z.string().trim().min(2).max(100).optional(),
};

const filterParameters = {
  priority: { type: "boolean", description: "Only priority suppliers (true) or only the others (false)." },
  due_diligence: { type: "boolean", description: "Only suppliers under due diligence (true) or only the others (false)." },
  tag: { type: "string", description: "Only suppliers with this tag of the organization (its title)." },
  country: { type: "string", description: "Only suppliers in this country: ISO 3166-1 alpha-2 code (NO) or name (Norway, Norge)." },
};

/** The filters the model gave, resolved to ids; a tag or country that does not exist is an error the model can read. */
async function filters(
  viewer: AssistantViewer,
  args: { priority?: boolean; due_diligence?: boolean; tag?: string; country?: string },
): Promise<SupplierFilters | { error: string }> {
  const out: SupplierFilters = { priority: args.priority, dueDiligence: args.due_diligence };
  if (args.tag) {
    const wanted = args.tag.toLocaleLowerCase("nb");
    const tags = await organizationTags(viewer);
    const tag = tags.find((t) => t.title.toLocaleLowerCase("nb") === wanted);
    if (!tag) return { error: `No tag "${args.tag}". The organization's tags: ${tags.map((t) => t.title).join(", ") || "none"}.` };
    out.tagId = tag.id;
  }
  if (args.country) {
    const country = await countryByCodeOrName(args.country, viewer.language);
    if (!country) return { error: `Unknown country "${args.country}".` };
    out.countryCode = country.code;
  }
  return out;
}

export const assistantTools: AssistantTool[] = [
  tool({
    name: "list_highest_risk_suppliers",
    description:
      "The organization's followed suppliers ranked by their stored overall risk, highest first. Each has the overall risk (0–100; the highest of the risk overview's lines — credit, geography, reputation, operational, legal, self-assessment — plus 5 for each further line above 66, raised by bankruptcy, winding-up or an inactive company), its band (green, yellow, red) and the reasons that decided it, and a link to its supplier screen.",
    schema: z.object({ limit: z.number().int().min(1).max(20).optional(), ...filterSchema }).strict(),
    parameters: {
      type: "object",
      properties: { limit: { type: "integer", minimum: 1, maximum: 20, description: "How many (default 5)." }, ...filterParameters },
      additionalProperties: false,
    },
    async run(args, viewer) {
      const f = await filters(viewer, args);
      if ("error" in f) return f;
      return highestRiskSuppliers(viewer, { limit: args.limit ?? 5, filters: f });
    },
  }),
  tool({
    name: "list_suppliers",
    description:
      "The organization's followed suppliers, by name, optionally only priority ones, those under due diligence, those with a tag, or those in a country. Gives the total and up to `limit` suppliers with links.",
    schema: z.object({ limit: z.number().int().min(1).max(50).optional(), ...filterSchema }).strict(),
    parameters: {
      type: "object",
      properties: { limit: { type: "integer", minimum: 1, maximum: 50, description: "How many to list (default 25)." }, ...filterParameters },
      additionalProperties: false,
    },
    async run(args, viewer) {
      const f = await filters(viewer, args);
      if ("error" in f) return f;
      return listFollowedSuppliers(viewer, f, args.limit ?? 25);
    },
  }),
  tool({
    name: "get_supplier",
    description:
      "One company by name or organization number (nine digits). For a supplier the organization follows: registry facts, compliance flags, risk overview, key financial figures with their change from the year before (NOK thousands), board and CEO, latest announcements, open tasks, tags and comments. For a company it does not follow: registry facts only (followed: false). Other companies matching the name are listed as candidates.",
    schema: z.object({ supplier: z.string().trim().min(2).max(200) }).strict(),
    parameters: {
      type: "object",
      properties: { supplier: { type: "string", description: "The company's name (or part of it) or its organization number." } },
      required: ["supplier"],
      additionalProperties: false,
    },
    async run(args, viewer) {
      const matches = await findSupplier(viewer, args.supplier);
      const [first] = matches;
      if (!first) return { error: `No company matching "${args.supplier}" in the registry.` };
      const facts = await supplierFacts(viewer, first.orgNumber);
      return { ...facts, candidates: matches.slice(1, 5).map((m) => ({ name: m.name, orgNumber: m.orgNumber, followed: m.followed })) };
    },
  }),
  tool({
    name: "list_tags",
    description: "The organization's tags with how many followed suppliers carry each.",
    schema: z.object({}).strict(),
    parameters: { type: "object", properties: {}, additionalProperties: false },
    run: (_args, viewer) => organizationTags(viewer).then((tags) => tags.map(({ title, suppliers }) => ({ title, suppliers }))),
  }),
  tool({
    name: "recent_changes",
    description:
      "What changed: the organization's risk notifications about its followed suppliers in the last `days` days (default 7), newest first, with the total.",
    schema: z
      .object({
        days: z.number().int().min(1).max(90).optional(),
        supplier: z
          .string()
          .regex(/^\d{9}$/)
          .optional(),
      })
      .strict(),
    parameters: {
      type: "object",
      properties: {
        days: { type: "integer", minimum: 1, maximum: 90, description: "How many days back (default 7)." },
        supplier: { type: "string", pattern: "^\\d{9}$", description: "Only this supplier (organization number)." },
      },
      additionalProperties: false,
    },
    run: (args, viewer) => recentChanges(viewer, { days: args.days ?? 7, limit: 20, supplierOrgNumber: args.supplier ?? null }),
  }),
];
