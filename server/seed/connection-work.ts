import type { Db } from "../db";
import { saveFile } from "../storage";
import type { SeededOrganizations } from "./supplier-work";

/**
 * The customers' supplier lists at a realistic size (20–200 connections each)
 * with tags, comments, attached files and case files. Runs after the supplier work.
 *
 * Re-runnable: connections are keyed by (customer, supplier, deleted or not),
 * tags by (organisation, title), tag links by their primary key, comments by
 * (connection, author, text), files by (organisation, name), case files by
 * (organisation, supplier, title). A row is looked up before it is written
 * and its audit row is written only together with it, so a second run adds
 * nothing.
 */

/** Active connections per customer (by position in `orgs.customers`), and how many soft-deleted ones. */
const PLAN: Array<{ active: number; deleted: number }> = [
  { active: 120, deleted: 4 },
  { active: 60, deleted: 2 },
  { active: 25, deleted: 1 },
];

const TAGS = ["Critical", "Logistics", "IT services", "Construction", "ISO 14001", "Transparency Act", "Tier 1", "Under review"] as const;
type TagTitle = (typeof TAGS)[number];

/** Tags that follow from what a company does (NACE code prefix). */
function industryTag(industryCode: string | null): TagTitle | null {
  const division = Number((industryCode ?? "").slice(0, 2));
  if (division >= 41 && division <= 43) return "Construction";
  if (division >= 49 && division <= 53) return "Logistics";
  if (division >= 58 && division <= 63) return "IT services";
  return null;
}

const COMMENTS = [
  "Annual review done; no findings.",
  "Asked for an updated ISO 14001 certificate.",
  "Contract renewed for two years.",
  "Follow up on the Transparency Act questionnaire before the next quarter.",
  "Key contact changed; new contact details received.",
  "Delivery delays in the last month — keep an eye on it.",
  "Visited their site; working conditions looked good.",
  "Price increase of 4 % announced from next year.",
];

const FILES: Array<{ name: string; mimeType: string; content: string }> = [
  {
    name: "Supplier assessment 2024.txt",
    mimeType: "text/plain",
    content: "Supplier assessment 2024\n\nScope: quality, delivery, environment, human rights.\nOverall score: 4 of 5.\n",
  },
  {
    name: "Contract summary.txt",
    mimeType: "text/plain",
    content: "Contract summary\n\nTerm: 24 months\nNotice: 3 months\nPenalties: delivery delays over 10 days.\n",
  },
  { name: "Audit checklist.csv", mimeType: "text/csv", content: "item,status\nCode of conduct signed,yes\nISO 14001,pending\nInsurance certificate,yes\n" },
  {
    name: "Meeting notes — Q3 review.txt",
    mimeType: "text/plain",
    content: "Q3 review\n\n- Lead times back to normal\n- New sustainability report due in December\n",
  },
];

interface CaseFileSeed {
  title: string;
  status: "open" | "in_progress" | "on_hold" | "closed";
  priority: number | null;
  daysAgo: number;
  comments: string[];
  events: Array<{ type: string; detail?: Record<string, unknown> }>;
}

const CASE_FILES: CaseFileSeed[] = [
  {
    title: "Late deliveries in Q3",
    status: "in_progress",
    priority: 4,
    daysAgo: 21,
    comments: ["Three deliveries were more than a week late.", "Supplier has sent an action plan; follow up in two weeks."],
    events: [{ type: "created" }, { type: "status_changed", detail: { from: "open", to: "in_progress" } }],
  },
  {
    title: "Transparency Act follow-up",
    status: "open",
    priority: 2,
    daysAgo: 9,
    comments: ["Questionnaire answers are incomplete for tier-2 suppliers."],
    events: [{ type: "created" }],
  },
  {
    title: "Negative press coverage",
    status: "on_hold",
    priority: 5,
    daysAgo: 45,
    comments: ["Article about working hours at a subcontractor.", "Waiting for the supplier's own investigation."],
    events: [
      { type: "created" },
      { type: "priority_changed", detail: { from: 3, to: 5 } },
      { type: "status_changed", detail: { from: "open", to: "on_hold" } },
    ],
  },
  {
    title: "Certificate renewal",
    status: "closed",
    priority: null,
    daysAgo: 90,
    comments: ["New ISO 14001 certificate received and filed."],
    events: [{ type: "created" }, { type: "status_changed", detail: { from: "open", to: "closed" } }],
  },
  {
    title: "Price dispute",
    status: "open",
    priority: 1,
    daysAgo: 3,
    comments: [],
    events: [{ type: "created" }],
  },
];

/** Which case files go to which of the first customer's suppliers: [supplier position in its list, case file indexes]. */
const CASE_FILE_PLAN: Array<[number, number[]]> = [
  [0, [0, 1, 3]],
  [1, [2]],
  [2, [4]],
  [15, [1, 4]],
  [16, [0]],
];

/** A small stable hash, so the choice of companies is spread over the registry yet the same on every run. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export async function seedConnectionWork(database: Db, orgs: SeededOrganizations, opts: { log: (line: string) => void; today: Date }): Promise<void> {
  const { log, today } = opts;
  const daysAgo = (n: number, hour = 9) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - n, hour)).toISOString();
  const customers = [...orgs.customers.values()];
  if (customers.length < 3) throw new Error("The connection work needs three customers");

  // Everything in one transaction: a thousand small writes take milliseconds instead of a commit each.
  const stats = await database.transaction().execute(async (trx) => {
    const stats = { connections: 0, deleted: 0, tags: 0, links: 0, comments: 0, files: 0, caseFiles: 0 };

    /* ---- candidate supplier companies ---- */
    // Not a demo supplier and not anybody's sub-supplier: those have their own stories in the demo.
    const excluded = new Set(orgs.suppliers.map((s) => s.orgNumber));
    const subSuppliers = await trx
      .selectFrom("organization_connections as c")
      .innerJoin("organizations as p", "p.id", "c.parent_organization_id")
      .innerJoin("organizations as o", "o.id", "c.child_organization_id")
      .select("o.org_number")
      .where("p.kind", "=", "supplier")
      .execute();
    for (const s of subSuppliers) if (s.org_number) excluded.add(s.org_number);
    const companies = (
      await trx
        .selectFrom("companies")
        .select(["org_number", "legal_name", "country_code", "industry_code"])
        .where("org_form", "=", "AS")
        .where("is_active", "=", 1)
        .where("number_of_employees", ">", 0)
        .execute()
    )
      .filter((c) => !excluded.has(c.org_number))
      .sort((a, b) => fnv(a.org_number) - fnv(b.org_number) || a.org_number.localeCompare(b.org_number));

    /* ---- tags per customer ---- */
    const tagIds = new Map<number, Map<TagTitle, number>>();
    for (const customer of customers) {
      const byTitle = new Map<TagTitle, number>();
      const existing = await trx.selectFrom("organization_tags").select(["id", "title"]).where("organization_id", "=", customer).execute();
      for (const title of TAGS) {
        const found = existing.find((t) => t.title.toLowerCase() === title.toLowerCase());
        if (found) byTitle.set(title, found.id);
        else {
          const row = await trx
            .insertInto("organization_tags")
            .values({ organization_id: customer, title, created_at: daysAgo(200) })
            .returning("id")
            .executeTakeFirstOrThrow();
          byTitle.set(title, row.id);
          stats.tags++;
        }
      }
      tagIds.set(customer, byTitle);
    }

    const users = new Map<number, number[]>();
    for (const customer of customers) {
      users.set(
        customer,
        (await trx.selectFrom("users").select("id").where("organization_id", "=", customer).orderBy("id").execute()).map((u) => u.id),
      );
    }

    /* ---- connections ---- */
    // Customers share part of the pool (the same company may supply several of them); offsets keep the overlap partial.
    const offsets = [0, 40, 90];
    const supplierIdCache = new Map<string, number>();
    const listed = new Map<number, Array<{ connectionId: number; supplierId: number; industryCode: string | null; position: number }>>();
    for (const [ci, customer] of customers.slice(0, 3).entries()) {
      const plan = PLAN[ci];
      const current = await trx
        .selectFrom("organization_connections")
        .select(["id", "child_organization_id"])
        .where("parent_organization_id", "=", customer)
        .where("is_deleted", "=", 0)
        .execute();
      // The demo's own connections (from the supplier work) come first, in the demo suppliers' order, so the first demo supplier is position 0.
      const byChild = new Map(current.map((c) => [c.child_organization_id, c.id]));
      const entries: Array<{ connectionId: number; supplierId: number; industryCode: string | null; position: number }> = [];
      for (const s of orgs.suppliers) {
        const connectionId = byChild.get(s.id);
        if (connectionId != null) entries.push({ connectionId, supplierId: s.id, industryCode: null, position: entries.length });
      }
      const demoCount = entries.length;
      const wanted = Math.max(0, plan.active - demoCount) + plan.deleted;
      const picks = Array.from({ length: Math.min(wanted, companies.length) }, (_, k) => companies[(offsets[ci] + k) % companies.length]);
      for (const [k, company] of picks.entries()) {
        const isDeleted = k >= picks.length - plan.deleted;
        let supplierId = supplierIdCache.get(company.org_number);
        if (supplierId == null) {
          supplierId = await ensureSupplierOrganization(
            trx,
            { orgNumber: company.org_number, name: company.legal_name, countryCode: company.country_code || "NO" },
            daysAgo(400),
          );
          supplierIdCache.set(company.org_number, supplierId);
        }
        const createdAt = daysAgo(5 + ((k * 37) % 700), 8 + (k % 9));
        const { id, created } = await ensureConnection(trx, customer, supplierId, {
          is_priority: k % 7 === 0 ? 1 : 0,
          is_due_diligence: k % 9 === 4 ? 1 : 0,
          is_deleted: isDeleted ? 1 : 0,
          contact_email: k % 4 === 1 ? `post@${slug(company.legal_name)}.example` : null,
          created_at: createdAt,
        });
        if (created) {
          await audit(trx, id, customer, users.get(customer)?.[0] ?? null, "created", createdAt);
          if (isDeleted) await audit(trx, id, customer, users.get(customer)?.[0] ?? null, "deleted", daysAgo(2));
          stats.connections++;
          if (isDeleted) stats.deleted++;
        }
        if (!isDeleted) entries.push({ connectionId: id, supplierId, industryCode: company.industry_code, position: entries.length });
      }
      listed.set(customer, entries);
    }

    /* ---- tags on connections ---- */
    for (const customer of customers.slice(0, 3)) {
      const byTitle = tagIds.get(customer)!;
      const author = users.get(customer)?.[0] ?? null;
      const links: Array<{ connectionId: number; tagId: number; title: TagTitle }> = [];
      for (const entry of listed.get(customer) ?? []) {
        const p = entry.position;
        const titles = new Set<TagTitle>();
        const fromIndustry = industryTag(entry.industryCode);
        if (fromIndustry) titles.add(fromIndustry);
        if (p % 6 === 0) titles.add("Critical");
        if (p % 5 === 1) titles.add("ISO 14001");
        if (p % 4 === 2) titles.add("Transparency Act");
        if (p % 8 === 3) titles.add("Tier 1");
        if (p % 11 === 7) titles.add("Under review");
        if (p % 13 === 5) titles.add("Logistics");
        for (const title of titles) links.push({ connectionId: entry.connectionId, tagId: byTitle.get(title)!, title });
      }
      if (links.length === 0) continue;
      const existing = new Set(
        (
          await trx
            .selectFrom("organization_connection_tags")
            .select(["connection_id", "tag_id"])
            .where("tag_id", "in", [...byTitle.values()])
            .execute()
        ).map((l) => `${l.connection_id}:${l.tag_id}`),
      );
      const fresh = links.filter((l) => !existing.has(`${l.connectionId}:${l.tagId}`));
      for (let i = 0; i < fresh.length; i += 200) {
        const chunk = fresh.slice(i, i + 200);
        await trx
          .insertInto("organization_connection_tags")
          .values(chunk.map((l) => ({ connection_id: l.connectionId, tag_id: l.tagId, created_at: daysAgo(4) })))
          .execute();
        await trx
          .insertInto("connection_events")
          .values(
            chunk.map((l) => ({
              connection_id: l.connectionId,
              organization_id: customer,
              user_id: author,
              action: "tag_added",
              detail: JSON.stringify({ tagId: l.tagId, title: l.title }),
              created_at: daysAgo(4),
            })),
          )
          .execute();
      }
      stats.links += fresh.length;
    }

    /* ---- comments ---- */
    for (const customer of customers.slice(0, 3)) {
      const authors = users.get(customer) ?? [];
      if (authors.length === 0) continue;
      for (const entry of listed.get(customer) ?? []) {
        if (entry.position % 3 !== 0) continue;
        const count = 1 + (entry.position % 2);
        for (let j = 0; j < count; j++) {
          const author = authors[(entry.position + j) % authors.length];
          const text = COMMENTS[(entry.position + j * 3) % COMMENTS.length];
          const exists = await trx
            .selectFrom("organization_connection_comments")
            .select("id")
            .where("connection_id", "=", entry.connectionId)
            .where("user_id", "=", author)
            .where("text", "=", text)
            .executeTakeFirst();
          if (exists) continue;
          const createdAt = daysAgo(1 + ((entry.position * 5 + j * 13) % 60), 10 + j);
          const row = await trx
            .insertInto("organization_connection_comments")
            .values({ connection_id: entry.connectionId, user_id: author, text, created_at: createdAt })
            .returning("id")
            .executeTakeFirstOrThrow();
          await audit(trx, entry.connectionId, customer, author, "comment_added", createdAt, { commentId: row.id });
          stats.comments++;
        }
      }
    }

    /* ---- files, owned by the first customer's analyst ---- */
    const first = customers[0];
    const owner =
      (await trx.selectFrom("users").select("id").where("email", "=", "analyst@demo.test").where("organization_id", "=", first).executeTakeFirst())?.id ??
      users.get(first)?.[0] ??
      null;
    const firstList = listed.get(first) ?? [];
    for (const [i, file] of FILES.entries()) {
      let fileId = (
        await trx
          .selectFrom("file_uploads")
          .select("id")
          .where("organization_id", "=", first)
          .where("file_name", "=", file.name)
          .orderBy("id")
          .executeTakeFirst()
      )?.id;
      if (fileId == null) {
        fileId = (
          await saveFile(Buffer.from(file.content, "utf8"), { fileName: file.name, mimeType: file.mimeType, organizationId: first, userId: owner }, trx)
        ).id;
        stats.files++;
      }
      // Each file on two or three connections, the first demo supplier among them.
      const targets = [firstList[i % 3], firstList[20 + i * 7], i % 2 === 0 ? firstList[40 + i] : undefined].filter(
        (e): e is NonNullable<typeof e> => e != null,
      );
      for (const target of targets) {
        const linked = await trx
          .selectFrom("organization_connection_files")
          .select("connection_id")
          .where("connection_id", "=", target.connectionId)
          .where("file_upload_id", "=", fileId)
          .executeTakeFirst();
        if (linked) continue;
        await trx
          .insertInto("organization_connection_files")
          .values({ connection_id: target.connectionId, file_upload_id: fileId, created_at: daysAgo(6) })
          .execute();
        await audit(trx, target.connectionId, first, owner, "file_attached", daysAgo(6), { fileId, fileName: file.name });
      }
    }

    /* ---- case files for suppliers of the first customer ---- */
    const caseAuthors = users.get(first) ?? [];
    for (const [position, indexes] of CASE_FILE_PLAN) {
      const entry = firstList[position];
      if (!entry) continue;
      for (const index of indexes) {
        const seed = CASE_FILES[index];
        const exists = await trx
          .selectFrom("casefiles")
          .select("id")
          .where("organization_id", "=", first)
          .where("supplier_organization_id", "=", entry.supplierId)
          .where("title", "=", seed.title)
          .executeTakeFirst();
        if (exists) continue;
        const author = caseAuthors.length ? caseAuthors[(position + index) % caseAuthors.length] : null;
        const createdAt = daysAgo(seed.daysAgo);
        const row = await trx
          .insertInto("casefiles")
          .values({
            organization_id: first,
            supplier_organization_id: entry.supplierId,
            title: seed.title,
            status: seed.status,
            priority: seed.priority,
            created_by: author,
            created_at: createdAt,
            updated_at: daysAgo(Math.max(0, seed.daysAgo - 2)),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        if (seed.comments.length) {
          await trx
            .insertInto("casefile_comments")
            .values(
              seed.comments.map((text, j) => ({
                casefile_id: row.id,
                user_id: caseAuthors.length ? caseAuthors[j % caseAuthors.length] : null,
                text,
                created_at: daysAgo(Math.max(0, seed.daysAgo - 1 - j), 11 + j),
              })),
            )
            .execute();
        }
        await trx
          .insertInto("casefile_events")
          .values(
            seed.events.map((event, j) => ({
              casefile_id: row.id,
              user_id: author,
              type: event.type,
              detail: event.detail ? JSON.stringify(event.detail) : null,
              created_at: daysAgo(Math.max(0, seed.daysAgo - j), 9 + j),
            })),
          )
          .execute();
        stats.caseFiles++;
      }
    }
    return stats;
  });

  log(
    `connection work: ${stats.connections} new connections (${stats.deleted} soft-deleted), ${stats.tags} tags, ${stats.links} tag links, ${stats.comments} comments, ${stats.files} files, ${stats.caseFiles} case files`,
  );
}

async function audit(
  database: Db,
  connectionId: number,
  organizationId: number,
  userId: number | null,
  action: string,
  createdAt: string,
  detail?: Record<string, unknown>,
) {
  await database
    .insertInto("connection_events")
    .values({
      connection_id: connectionId,
      organization_id: organizationId,
      user_id: userId,
      action,
      detail: detail ? JSON.stringify(detail) : null,
      created_at: createdAt,
    })
    .execute();
}

async function ensureSupplierOrganization(database: Db, unit: { orgNumber: string; name: string; countryCode: string }, createdAt: string): Promise<number> {
  const existing = await database
    .selectFrom("organizations")
    .select("id")
    .where("org_number", "=", unit.orgNumber)
    .where("kind", "=", "supplier")
    .orderBy("id")
    .executeTakeFirst();
  if (existing) return existing.id;
  const row = await database
    .insertInto("organizations")
    .values({ name: unit.name, kind: "supplier", org_number: unit.orgNumber, country_code: unit.countryCode, created_at: createdAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Finds the connection in the wanted state (active or soft-deleted) or makes it; flags and dates go back to their seeded values. */
async function ensureConnection(
  database: Db,
  parent: number,
  child: number,
  values: { is_priority: number; is_due_diligence: number; is_deleted: number; contact_email: string | null; created_at: string },
): Promise<{ id: number; created: boolean }> {
  const existing = await database
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .where("is_deleted", "=", values.is_deleted)
    .orderBy("id")
    .executeTakeFirst();
  if (existing) {
    await database.updateTable("organization_connections").set(values).where("id", "=", existing.id).execute();
    return { id: existing.id, created: false };
  }
  const row = await database
    .insertInto("organization_connections")
    .values({ ...values, parent_organization_id: parent, child_organization_id: child, updated_at: values.created_at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, created: true };
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/æ/g, "ae")
      .replace(/ø/g, "o")
      .replace(/å/g, "a")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "supplier"
  );
}
