import { sql } from "kysely";
import { db } from "@server/db";
import type { JobContext, Schedule } from "@server/jobs/types";
import { osloDate } from "~/models/tasks/task-states";

/**
 * Daily snapshots of the stored overall risk (decision 038): per organisation and Oslo day, the active connections counted
 * by band, priority and due-diligence flag, over all of them (tag_id 0) and per tag. Only ever today's rows are written,
 * from the connections as they are now: history is what was recorded, never reconstructed.
 */

export const RISK_SNAPSHOT_JOB = "risk.snapshot";

/** After the 05:30 safety run of the overall risk (decision 036), so the day starts with a snapshot of fresh values. */
export const riskSnapshotSchedule: Schedule = { name: RISK_SNAPSHOT_JOB, dailyAt: "05:50", type: RISK_SNAPSHOT_JOB };

/** The "risk.snapshot" job: today's snapshot of every organisation. */
export async function riskSnapshotJob(ctx: JobContext<unknown>): Promise<void> {
  const rows = await snapshotRisk();
  await ctx.finish(async () => ({ rows }));
}

export interface SnapshotScope {
  /** Only these organisations (the others' rows of the day stay as they are); all when absent. */
  organizationIds?: readonly number[];
  now?: Date;
}

/** Organisation ids bound per statement, far below SQLite's variable limit. */
const CHUNK = 500;

/**
 * Replaces the day's snapshot rows of the organisations in scope with counts of their active connections now, in one
 * transaction per chunk of organisations (set-based: one DELETE and one INSERT … SELECT each). Running it again the same
 * day gives the same rows. Returns the number of rows written.
 */
export async function snapshotRisk(scope: SnapshotScope = {}): Promise<number> {
  const day = osloDate(scope.now ?? new Date());
  const ids = scope.organizationIds ? [...new Set(scope.organizationIds)] : null;
  if (ids?.length === 0) return 0;
  const chunks = ids ? Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, i) => ids.slice(i * CHUNK, (i + 1) * CHUNK)) : [null];
  let written = 0;
  for (const chunk of chunks) {
    written += await db()
      .transaction()
      .execute(async (trx) => {
        let remove = trx.deleteFrom("risk_snapshots").where("day", "=", day);
        if (chunk) remove = remove.where("organization_id", "in", chunk);
        await remove.execute();
        const scoped = chunk ? sql`and oc.parent_organization_id in (${sql.join(chunk)})` : sql``;
        const result = await sql`
          insert into risk_snapshots (organization_id, day, tag_id, band, is_priority, is_due_diligence, count)
          select oc.parent_organization_id, ${day}, 0, coalesce(oc.overall_risk_band, 'unknown'), oc.is_priority, oc.is_due_diligence, count(*)
            from organization_connections oc
           where oc.is_deleted = 0 ${scoped}
           group by 1, 4, 5, 6
          union all
          select oc.parent_organization_id, ${day}, t.id, coalesce(oc.overall_risk_band, 'unknown'), oc.is_priority, oc.is_due_diligence, count(*)
            from organization_connections oc
            join organization_connection_tags ct on ct.connection_id = oc.id
            join organization_tags t on t.id = ct.tag_id and t.organization_id = oc.parent_organization_id
           where oc.is_deleted = 0 ${scoped}
           group by 1, 3, 4, 5, 6`.execute(trx);
        return Number(result.numAffectedRows ?? 0);
      });
  }
  return written;
}
