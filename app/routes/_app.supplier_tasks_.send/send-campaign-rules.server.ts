import { parseId } from "~/http/parse.server";
import { type SupplierSelection } from "~/models/tasks/campaign-send.server";
import { MAX_CAMPAIGN_SUPPLIERS, type CampaignRefusal } from "~/models/tasks/campaigns.server";
import { type Refusal } from "~/models/shared/refusal";
import { supplierListQuery } from "~/models/suppliers/supplier-list.server";

/**
 * The send screen's server-side rules: which suppliers a request names (the URL on GET, the form on POST), the hidden
 * fields that send the same suppliers again, and the words for a refused campaign.
 */

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The supplier list's filter fields that a "whole filter" selection carries. */
const FILTER_FIELDS = ["q", "tag", "priority", "dd", "risk", "sort", "dir"] as const;
/**
 * Which suppliers, from the URL (GET) or the form (POST): `supplier` ids (chosen rows, one supplier), or `filter=1` with
 * the supplier list's own filter fields, resolved by the list's own query.
 */
export function selectionFrom(params: { get(name: string): unknown; getAll(name: string): unknown[] }): SupplierSelection {
  if (params.get("filter") === "1") {
    const raw: Record<string, string> = {};
    for (const name of FILTER_FIELDS) {
      const value = params.get(name);
      if (typeof value === "string") raw[name] = value;
    }
    const { tag, page: _page, size: _size, ...rest } = supplierListQuery.parse(raw);
    return { kind: "filter", filters: { ...rest, tagId: parseId(tag) } };
  }
  return {
    kind: "ids",
    ids: params
      .getAll("supplier")
      .slice(0, MAX_CAMPAIGN_SUPPLIERS + 1)
      .flatMap((v) => parseId(v) ?? []),
  };
}

/** The selection's hidden fields, so the form sends the same suppliers it shows. */
export function selectionFields(selection: SupplierSelection, ids: number[]): Array<[string, string]> {
  if (selection.kind === "ids") return ids.map((id) => ["supplier", String(id)]);
  const f = selection.filters;
  const fields: Array<[string, string]> = [["filter", "1"]];
  if (f.q) fields.push(["q", f.q]);
  if (f.tagId != null) fields.push(["tag", String(f.tagId)]);
  if (f.priority != null) fields.push(["priority", f.priority ? "yes" : "no"]);
  if (f.dueDiligence != null) fields.push(["dd", f.dueDiligence ? "yes" : "no"]);
  if (f.risk) fields.push(["risk", f.risk]);
  if (f.sort) fields.push(["sort", f.sort]);
  if (f.dir) fields.push(["dir", f.dir]);
  return fields;
}

/** The user's message for a refused campaign (campaigns.server.ts CAMPAIGN_REFUSALS). */
export function campaignRefusalMessage(t: Translate, refusal: Refusal<CampaignRefusal>, count: number): string {
  switch (refusal.code) {
    case "too-many-suppliers":
      return t("campaigns:errors.tooManySuppliers", { max: refusal.details.max, count });
    case "not-followed":
      return t("campaigns:errors.notFollowed", { count: refusal.details.count });
    case "template-not-found":
      return t("campaigns:errors.templateNotFound");
    case "no-suppliers":
      return t("campaigns:errors.noSuppliers");
    case "due-date-in-past":
      return t("campaigns:errors.dueDateInPast");
  }
}
