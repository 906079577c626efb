import { db } from "@server/db";
import { recordConnectionEvent } from "~/models/suppliers/connection-audit.server";
import { refuse } from "~/models/shared/refusal";

/** The organisation's tags (shared/spec/02-supplier-credit-connections.md §3 "Organisation tag"), scoped by the session's organisation. */

export interface TagItem {
  id: number;
  title: string;
}

export interface TagWithCount extends TagItem {
  /** Active (not soft-deleted) connections that carry the tag. */
  organizationConnectionsCount: number;
}

/** GET /api/organization-tags: the organisation's tags by title. */
export async function listTags(input: { organizationId: number }): Promise<TagItem[]> {
  return db()
    .selectFrom("organization_tags")
    .select(["id", "title"])
    .where("organization_id", "=", input.organizationId)
    .orderBy((eb) => eb.fn("lower", ["title"]), "asc")
    .orderBy("id", "asc")
    .execute();
}

/** GET /api/organization-tags/with-counts: each tag with the number of connections using it (the Manage Tags dialog). */
export async function listTagsWithCounts(input: { organizationId: number }): Promise<TagWithCount[]> {
  const rows = await db()
    .selectFrom("organization_tags as t")
    .leftJoin("organization_connection_tags as ct", "ct.tag_id", "t.id")
    .leftJoin("organization_connections as c", (join) => join.onRef("c.id", "=", "ct.connection_id").on("c.is_deleted", "=", 0))
    .select((eb) => ["t.id", "t.title", eb.fn.count<number>("c.id").as("count")])
    .where("t.organization_id", "=", input.organizationId)
    .groupBy(["t.id", "t.title"])
    .orderBy((eb) => eb.fn("lower", ["t.title"]), "asc")
    .orderBy("t.id", "asc")
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, organizationConnectionsCount: Number(r.count) }));
}

/**
 * Deletes one of the organisation's tags and all its links; each affected
 * connection records 'tag_removed'. Refuses ("not-found", code "tag", as a
 * connection's refusal names it) an id that is not one of the organisation's
 * tags, changing nothing.
 */
export async function deleteTag(input: { organizationId: number; userId: number | null; tagId: number }): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      const tag = await trx
        .selectFrom("organization_tags")
        .select(["id", "title"])
        .where("id", "=", input.tagId)
        .where("organization_id", "=", input.organizationId)
        .executeTakeFirst();
      if (!tag) throw refuse("not-found", "tag", { message: "Tag not found" });
      const links = await trx.selectFrom("organization_connection_tags").select("connection_id").where("tag_id", "=", tag.id).execute();
      for (const link of links) {
        await recordConnectionEvent(
          {
            connectionId: link.connection_id,
            organizationId: input.organizationId,
            userId: input.userId,
            action: "tag_removed",
            detail: { tagId: tag.id, title: tag.title, tagDeleted: true },
          },
          trx,
        );
      }
      await trx.deleteFrom("organization_connection_tags").where("tag_id", "=", tag.id).execute();
      await trx.deleteFrom("organization_tags").where("id", "=", tag.id).execute();
    });
}
