import type { Migration } from "kysely";
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_registry";
import * as m0003 from "./0003_supplier_work";
import * as m0004 from "./0004_credit_reports";
import * as m0005 from "./0005_connection_work";
import * as m0007 from "./0007_sign_in_protection";
import * as m0008 from "./0008_jobs";
import * as m0009 from "./0009_file_content_kind";
import * as m0010 from "./0010_supplier_imports";
import * as m0011 from "./0011_lei";
import * as m0012 from "./0012_monitoring";
import * as m0013 from "./0013_assistant";
import * as m0014 from "./0014_ai_reports";
import * as m0015 from "./0015_document_texts";
import * as m0016 from "./0016_tasks_surveys";
import * as m0021 from "./0021_intelligence_texts";
import * as m0022 from "./0022_overall_risk";
import * as m0023 from "./0023_risk_snapshots";
import * as m0024 from "./0024_overview_indexes";
import * as m0025 from "./0025_connection_facts";
import * as m0026 from "./0026_accounts_and_audit";
import * as m0027 from "./0027_mail_settings";
import * as m0030 from "./0030_integrations";
import * as m0031 from "./0031_mail_log";
import * as m0032 from "./0032_admin_announcements";
import * as m0033 from "./0033_announcement_mailing";
import * as m0036 from "./0036_admin_indexes";
import * as m0037 from "./0037_credit_billing_index";

/**
 * Every migration, in order. Listed statically (not read from the folder at
 * run time) so that the built server, the CLI and the tests share one list.
 */
export const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_registry": m0002,
  "0003_supplier_work": m0003,
  "0004_credit_reports": m0004,
  "0005_connection_work": m0005,
  "0007_sign_in_protection": m0007,
  "0008_jobs": m0008,
  "0009_file_content_kind": m0009,
  "0010_supplier_imports": m0010,
  "0011_lei": m0011,
  "0012_monitoring": m0012,
  "0013_assistant": m0013,
  "0014_ai_reports": m0014,
  "0015_document_texts": m0015,
  "0016_tasks_surveys": m0016,
  "0021_intelligence_texts": m0021,
  "0022_overall_risk": m0022,
  "0023_risk_snapshots": m0023,
  "0024_overview_indexes": m0024,
  "0025_connection_facts": m0025,
  "0026_accounts_and_audit": m0026,
  "0027_mail_settings": m0027,
  "0030_integrations": m0030,
  "0031_mail_log": m0031,
  "0032_admin_announcements": m0032,
  "0033_announcement_mailing": m0033,
  "0036_admin_indexes": m0036,
  "0037_credit_billing_index": m0037,
};
