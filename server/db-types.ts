import type { Generated } from "kysely";

/**
 * The typed shape of the database. Each migration that adds a table adds
 * its interface here. Booleans are stored as 0/1 integers.
 */

export interface OrganizationTable {
  id: Generated<number>;
  name: string;
  /** 'customer' follows suppliers; 'supplier' answers tasks and surveys. */
  kind: "customer" | "supplier";
  /** Norwegian organisation number (9 digits) when known. */
  org_number: string | null;
  country_code: string;
  created_at: string;
  /** Whether a supplier organisation lets its customers see its own suppliers (sub-suppliers). */
  data_sharing_enabled: Generated<number>;
  /* 0026 */
  /** Set when the installation's operator deactivates the organisation: its members' sessions end and they cannot sign in. */
  deactivated_at: string | null;
}

export interface UserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  language: "en" | "no";
  is_admin: number;
  organization_id: number | null;
  /** Organisation access level: 1 viewer, 2 analyst, 3 manager. */
  access_level: number;
  created_at: string;
  /* 0026 */
  /** Set when the account is deactivated: its sessions end and it cannot sign in until reactivated. */
  deactivated_at: string | null;
}

export interface SessionTable {
  /** sha256 of the token; the token itself is only in the user's cookie. */
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
  /* 0026 */
  /** When the session was last used (written at most every few minutes). */
  last_seen_at: string | null;
}

export interface InvitationTable {
  id: Generated<number>;
  token_hash: string;
  email: string;
  organization_id: number;
  access_level: number;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface PasswordResetTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LoginFailureTable {
  id: Generated<number>;
  /** 'account:{email}', 'address:{ip}' or 'pair:{email}|{ip}' (one account from one address) */
  key: string;
  at: string;
}

/** A sign-up waiting for its mailed confirmation (migration 0007). */
export interface SignupRequestTable {
  id: Generated<number>;
  token_hash: string;
  email: string;
  organization_name: string;
  password_hash: string;
  language: "en" | "no";
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A mailed link that lets the owner sign in to an account protected by many failed attempts (migration 0007). */
export interface AccountUnlockTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Registry data (migration 0002): one row per unit of a company register. */
export interface CompanyTable {
  id: Generated<number>;
  /** Nine digits for Norwegian units, else the foreign registration id. */
  org_number: string;
  country_code: string;
  legal_name: string;
  /** Organisation form code, e.g. 'AS', 'ASA', 'ENK'. */
  org_form: string | null;
  org_form_description: string | null;
  industry_code: string | null;
  industry_description: string | null;
  purpose: string | null;
  activity: string | null;
  number_of_employees: number | null;
  /** YYYY-MM-DD */
  establishment_date: string | null;
  registration_date: string | null;
  /** Address lines separated by '\n'. */
  street_address: string | null;
  street_postal_code: string | null;
  street_postal_area: string | null;
  municipality: string | null;
  municipality_code: string | null;
  /** Address lines separated by '\n'. */
  postal_address: string | null;
  postal_code: string | null;
  postal_area: string | null;
  website: string | null;
  is_vat_registered: Generated<number>;
  is_bankrupt: Generated<number>;
  date_of_bankruptcy: string | null;
  /** Voluntary or forced liquidation/dissolution. */
  is_under_liquidation: Generated<number>;
  is_under_forced_liquidation: Generated<number>;
  /** 0 when deleted, bankrupt or under liquidation of any kind. */
  is_active: Generated<number>;
  deleted_at: string | null;
  /** The superior unit (overordnetEnhet); not a foreign key. */
  parent_org_number: string | null;
  source: "brreg-csv" | "brreg-json" | "brreg-api" | "seed";
  updated_at: string;
}

type Amount = number | null;

/** One annual statement; amounts in thousands of `currency` (NOK for almost all). */
export interface FinancialStatementTable {
  id: Generated<number>;
  company_id: number;
  financial_year: number;
  period_start: string | null;
  period_end: string | null;
  currency: Generated<string>;
  operating_income: Amount;
  other_operating_income: Amount;
  cost_of_materials: Amount;
  personnel_expenses: Amount;
  other_operating_expenses: Amount;
  /** The API layer also exposes it as `deprecation`. */
  depreciation: Amount;
  write_downs: Amount;
  operating_profit: Amount;
  financial_income: Amount;
  other_financial_expenses: Amount;
  financial_expenses: Amount;
  ordinary_result_before_taxes: Amount;
  taxes: Amount;
  ordinary_result_after_taxes: Amount;
  total_taxes: Amount;
  net_income: Amount;
  dividend: Amount;
  intra_group_contribution: Amount;
  transferred_equity: Amount;
  loss_on_receivables: Amount;
  fixed_assets: Amount;
  intangible_assets: Amount;
  deferred_tax_assets: Amount;
  goodwill: Amount;
  tangible_assets: Amount;
  buildings_and_real_estate: Amount;
  machinery_and_equipment: Amount;
  fixed_financial_assets: Amount;
  loan_to_group: Amount;
  current_assets: Amount;
  inventories: Amount;
  receivables: Amount;
  accounts_receivables: Amount;
  short_term_investments: Amount;
  cash_and_deposits: Amount;
  total_assets: Amount;
  equity: Amount;
  paid_up_equity: Amount;
  share_capital: Amount;
  retained_earnings: Amount;
  liabilities: Amount;
  long_term_liabilities: Amount;
  other_long_term_debt: Amount;
  long_term_debt_to_group_companies: Amount;
  subordinated_loan_cap: Amount;
  total_current_debt: Amount;
  overdrafts: Amount;
  overdraft_facility: Amount;
  trade_creditors: Amount;
  value_added_taxes: Amount;
  debt_dividend: Amount;
  sales: Amount;
  number_of_employees: Amount;
  operating_expenses: Amount;
  net_financial_items: Amount;
  total_result: Amount;
  total_equity_and_liabilities: Amount;
  /** JSON text: {finalScore, capitalRisk, liquidityRisk, coverageRisk, profitabilityRisk, growthRisk}. */
  financial_risk_score: string | null;
  source: Generated<string>;
  updated_at: string;
}

export interface PersonTable {
  id: Generated<number>;
  name: string;
  birth_year: number | null;
  sex: string | null;
  country_code: string | null;
  boardscore: Generated<number>;
}

export interface RoleTable {
  id: Generated<number>;
  person_id: number;
  company_id: number;
  position: string;
  active_from: string | null;
  /** null while the role is held. */
  active_to: string | null;
}

/** Exactly one of holder_company_id and holder_person_id is set. */
export interface ShareholdingTable {
  id: Generated<number>;
  /** The owned company. */
  company_id: number;
  holder_company_id: number | null;
  holder_person_id: number | null;
  /** 0–100. */
  percent: number | null;
  /** e.g. 'HFOR' (parent company). */
  relation_type: string | null;
  updated_at: string;
}

export interface AnnouncementTable {
  id: Generated<number>;
  company_id: number;
  date: string;
  type: string;
  detail: string | null;
  risk: Generated<number>;
  operational_risk: number | null;
  legal_risk: number | null;
}

export interface CountryTable {
  iso2: string;
  iso3: string;
  name_en: string;
  name_no: string;
  region: string | null;
  /** round(100 − governance_percentile), 0–100. */
  risk_score: number | null;
  /** 10-year change of CO2 intensity of GDP, percent. */
  co2_per_gdp: number | null;
  governance_percentile: number | null;
}

export interface SupplierIntelligenceTable {
  company_id: number;
  /** JSON text in the shape of shared/spec/02-supplier-credit-connections.md §3 "Supplier intelligence response". */
  data: string;
  generated_at: string;
}

/** External-content FTS5 index over companies (rowid = companies.id); query with MATCH. */
export interface CompanyFtsTable {
  rowid: number;
  legal_name: string;
  org_number: string;
  rank: number;
}

/** External-content FTS5 index over persons (rowid = persons.id). */
export interface PersonFtsTable {
  rowid: number;
  name: string;
  rank: number;
}

/* ---------- 0003: connections, notifications, files, tasks, surveys ---------- */

export interface OrganizationConnectionTable {
  id: Generated<number>;
  /** The customer organisation that follows the supplier. */
  parent_organization_id: number;
  /** The supplier organisation. */
  child_organization_id: number;
  contact_email: string | null;
  is_priority: Generated<number>;
  is_due_diligence: Generated<number>;
  is_deleted: Generated<number>;
  created_at: string;
  updated_at: string;
  /** The overall risk 0–100 (decision 036); NULL until computed or when nothing is known. */
  overall_risk: number | null;
  overall_risk_band: "green" | "yellow" | "red" | null;
  /** JSON: the reasons (app/models/suppliers/overall-risk.ts OverallRiskReason[]). */
  overall_risk_reasons: string | null;
  overall_risk_at: string | null;
  /* 0025: the registry facts the dashboard groups by, written with the overall risk (decision 038) */
  /** NACE section letter A–U of the company's industry code; NULL: no company or no code. */
  nace_section: string | null;
  /** Compliance regimes as bits (1 ARP, 2 Transparency Act, 4 CSRD); NULL: no registry company. */
  compliance_flags: number | null;
}

export interface RiskNotificationTable {
  id: Generated<number>;
  company_id: number;
  type: "announcement" | "search";
  date: string;
  created_at: string;
  risk_score: number;
  relevance_score: number;
  /** English title and description (the Norwegian ones below; NULL there: the English text serves both). */
  title: string;
  source: string | null;
  url: string | null;
  description: string | null;
  /* 0012: monitoring */
  /** The detection kind (app/models/notifications/monitoring-rules.ts); NULL for the demo's seeded rows. */
  kind: string | null;
  /** The organisation whose news feed found it (only it sees it); NULL: registry-wide. */
  organization_id: number | null;
  /** Exactly once: unique when set. */
  dedupe_key: string | null;
  title_no: string | null;
  description_no: string | null;
  /** JSON: what changed ({from, to, …}). */
  details: string | null;
}

/* ---------- 0012: monitoring ---------- */
export interface NotificationReadTable {
  user_id: number;
  notification_id: number;
  read_at: string;
}

export interface NotificationDismissalTable {
  organization_id: number;
  notification_id: number;
  dismissed_by: number | null;
  reason: string;
  dismissed_at: string;
}

export interface NewsFeedTable {
  id: Generated<number>;
  organization_id: number;
  url: string;
  title: string | null;
  is_enabled: Generated<number>;
  etag: string | null;
  last_modified: string | null;
  last_read_at: string | null;
  last_status: "ok" | "not_modified" | "failed" | null;
  last_error: string | null;
  created_by: number | null;
  created_at: string;
}

export interface MonitorStateTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface NotificationSettingsTable {
  user_id: number;
  digest: Generated<"off" | "daily" | "weekly">;
  immediate: Generated<number>;
  updated_at: string;
  /** 0027: reminders of tasks and surveys sent to the user's own address (1 on). */
  task_reminders: Generated<number>;
  survey_reminders: Generated<number>;
  /** 0027: the language of the user's mails; NULL: the account's (UI) language. */
  mail_language: "en" | "no" | null;
}

export interface NotificationMailTable {
  id: Generated<number>;
  user_id: number;
  kind: "digest" | "immediate";
  period_key: string;
  notification_count: number;
  sent_at: string;
}

export interface FileUploadTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number | null;
  file_name: string;
  file_size: number;
  mime_type: string;
  storage_key: string;
  created_at: string;
  /** Sniffed from the bytes at upload (migration 0009); NULL for older rows until a list sniffs them. */
  content_kind: "pdf" | "xlsx" | "xls" | "csv" | "other" | null;
}

export interface ComplianceTaskTemplateTable {
  id: Generated<number>;
  organization_id: number | null;
  title: string;
  description: string | null;
  template_file_id: number | null;
  created_at: string;
  /* 0016 */
  title_no: string | null;
  description_no: string | null;
  due_in_days: number | null;
  updated_at: string | null;
  archived_at: string | null;
  key: string | null;
}

export interface ComplianceTaskTable {
  id: Generated<number>;
  organization_id: number;
  supplier_organization_id: number;
  template_id: number | null;
  title: string;
  is_custom: Generated<number>;
  is_submitted: Generated<number>;
  due_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface ComplianceTaskResponseTable {
  id: Generated<number>;
  task_id: number;
  responder_user_id: number | null;
  comment: string | null;
  created_at: string;
  updated_at: string;
}

export interface ComplianceTaskResponseFileTable {
  response_id: number;
  file_upload_id: number;
}

export interface SurveyTemplateTable {
  id: Generated<number>;
  organization_id: number | null;
  title: string;
  /** 0003's flat question list; since 0016 the questions are in survey_template_versions. */
  questions: Generated<string>;
  created_at: string;
  /* 0016 */
  title_no: string | null;
  updated_at: string | null;
  archived_at: string | null;
  key: string | null;
}

export interface SurveyResponseTable {
  id: Generated<number>;
  survey_template_id: number;
  organization_id: number;
  supplier_organization_id: number;
  status: Generated<"draft" | "submitted">;
  answers: Generated<string>;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  /* 0016 */
  template_version_id: number | null;
  score: number | null;
  language: string | null;
}

/* ---------- 0004: credit reports ---------- */

export interface CreditReportTable {
  id: Generated<number>;
  /** The ordering organisation; reports are only ever shown to it. */
  organization_id: number;
  user_id: number | null;
  company_name: string;
  reg_no: string | null;
  country_code: string;
  language: "EN" | "NO";
  provider: "local" | "creditsafe";
  /** The provider's company id (Creditsafe connectId, or the org number for local). */
  provider_id: string;
  file_name: string;
  storage_key: string;
  file_size: number;
  price_nok: number;
  idempotency_key: string;
  created_at: string;
}

/* ---------- 0005: tags, comments, attached files, case files, audit ---------- */

export interface OrganizationTagTable {
  id: Generated<number>;
  organization_id: number;
  title: string;
  created_at: string;
}

export interface OrganizationConnectionTagTable {
  connection_id: number;
  tag_id: number;
  created_at: string;
}

export interface OrganizationConnectionCommentTable {
  id: Generated<number>;
  connection_id: number;
  user_id: number | null;
  text: string;
  created_at: string;
}

export interface OrganizationConnectionFileTable {
  connection_id: number;
  file_upload_id: number;
  created_at: string;
}

export interface CasefileTable {
  id: Generated<number>;
  organization_id: number;
  supplier_organization_id: number | null;
  title: string;
  status: Generated<"open" | "in_progress" | "on_hold" | "closed">;
  priority: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface CasefileCommentTable {
  id: Generated<number>;
  casefile_id: number;
  user_id: number | null;
  text: string;
  created_at: string;
}

export interface CasefileEventTable {
  id: Generated<number>;
  casefile_id: number;
  user_id: number | null;
  type: string;
  detail: string | null;
  created_at: string;
}

/** The audit trail: every change to a connection, by whom and when. */
export interface ConnectionEventTable {
  id: Generated<number>;
  connection_id: number;
  organization_id: number;
  user_id: number | null;
  action: string;
  detail: string | null;
  created_at: string;
}

/** A durable background job (server/jobs/). JSON columns hold JSON text. */
export interface JobTable {
  id: Generated<number>;
  organization_id: number | null;
  user_id: number | null;
  type: string;
  payload: Generated<string>;
  status: Generated<"queued" | "running" | "done" | "failed">;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: string;
  locked_by: string | null;
  lease_until: string | null;
  heartbeat_at: string | null;
  progress_done: Generated<number>;
  progress_total: number | null;
  result: string | null;
  error_key: string | null;
  error_params: string | null;
  error_detail: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A recurring job: every N minutes or daily at HH:MM (Europe/Oslo). */
export interface JobScheduleTable {
  id: Generated<number>;
  name: string;
  kind: "every" | "daily";
  every_minutes: number | null;
  at_time: string | null;
  type: string;
  payload: Generated<string>;
  organization_id: number | null;
  next_run_at: string;
  last_run_at: string | null;
  last_job_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A supplier list being imported from an uploaded spreadsheet. JSON columns are text. */
export interface SupplierImportTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  file_upload_id: number;
  job_id: number | null;
  mapping: string;
  status: "analysing" | "ready" | "failed" | "confirmed";
  counts: string | null;
  error: string | null;
  result_file_id: number | null;
  tag_id: number | null;
  confirmed_by: number | null;
  confirmed_at: string | null;
  created_at: string;
}

/** One line of an imported supplier list and what the analysis matched it to. */
export interface SupplierImportRowTable {
  id: Generated<number>;
  import_id: number;
  row_number: number;
  cells: string;
  org_id_raw: string | null;
  name_raw: string | null;
  country_raw: string | null;
  status: "matched" | "ambiguous" | "not_found" | "invalid" | "existing" | "duplicate";
  company_id: number | null;
  candidates: string | null;
  confidence: number | null;
  reason: string | null;
  chosen_company_id: number | null;
}

/** One LEI record of GLEIF's golden copy (migration 0011; dates as GLEIF writes them). */
export interface LeiRecordTable {
  /** lei_fts.rowid. */
  id: Generated<number>;
  lei: string;
  legal_name: string;
  legal_name_lang: string | null;
  /** The registration authority's id of the entity (the organisation number for NO entities). */
  registered_as: string | null;
  /** The registration authority (RA000472 …). */
  registered_at: string | null;
  jurisdiction: string | null;
  legal_form_code: string | null;
  legal_form_other: string | null;
  entity_status: string | null;
  entity_category: string | null;
  /** JSON array of strings. */
  legal_address_lines: Generated<string>;
  legal_postal_code: string | null;
  legal_city: string | null;
  legal_region: string | null;
  legal_country: string | null;
  /** JSON array of strings. */
  hq_address_lines: Generated<string>;
  hq_postal_code: string | null;
  hq_city: string | null;
  hq_region: string | null;
  hq_country: string | null;
  registration_status: string;
  initial_registration_date: string | null;
  last_update_date: string | null;
  next_renewal_date: string | null;
  managing_lou: string | null;
  validation_sources: string | null;
  updated_at: string;
}

export interface LeiOtherNameTable {
  id: Generated<number>;
  lei: string;
  position: number;
  name: string;
  type: string | null;
  lang: string | null;
  /** 0/1: from Entity.TransliteratedOtherEntityNames. */
  transliterated: Generated<number>;
}

export interface LeiRelationshipTable {
  id: Generated<number>;
  child_lei: string;
  parent_lei: string;
  kind: "direct" | "ultimate";
  /** ACTIVE | INACTIVE. */
  relationship_status: string;
  registration_status: string | null;
  start_date: string | null;
  end_date: string | null;
  last_update_date: string | null;
  updated_at: string;
}

export interface LeiReportingExceptionTable {
  id: Generated<number>;
  lei: string;
  kind: "direct" | "ultimate";
  reason: string;
  reference: string | null;
  updated_at: string;
}

export interface LeiElfCodeTable {
  code: string;
  country: string | null;
  country_code: string | null;
  name: string;
  transliterated_name: string | null;
  lang: string | null;
  /** ACTI | INAC. */
  status: string;
  updated_at: string;
}

/** FTS5 over LEI records' names and the LEI (rowid = lei_records.id; no row for a retired, annulled, merged or duplicate record). */
export interface LeiFtsTable {
  rowid: number;
  lei: string;
  legal_name: string;
  /** The other and transliterated names, one per line. */
  other_names: string;
  rank: number;
}

/** The live GLEIF adapter's answers, by request. */
export interface LeiCacheTable {
  key: string;
  /** JSON. */
  body: string;
  fetched_at: string;
}

/* ---------- 0013: the assistant's conversations ---------- */

/** One user's conversation with the assistant (never shown to anyone else). */
export interface ConversationTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number;
  title: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationMessageTable {
  id: Generated<number>;
  conversation_id: number;
  text: string;
  is_assistant: Generated<number>;
  file_upload_id: number | null;
  created_at: string;
}

/** The extracted text of an uploaded document (migration 0015; server/documents/extract.ts). */
export interface DocumentTextTable {
  file_upload_id: number;
  organization_id: number;
  status: "ready" | "failed";
  /** A PDF's pages separated by a form feed. Empty when failed. */
  text: Generated<string>;
  /** Pages of a PDF; NULL for other kinds. */
  pages: number | null;
  characters: Generated<number>;
  truncated: Generated<number>;
  /** The reason a file has no text, as a translation key ("aiDocuments:error.…"). */
  error_key: string | null;
  extracted_at: string;
}

/* ---------- 0014: supplier reports written by the assistant's provider ---------- */

/** One supplier report of an organisation (/ai/reports); the markdown is the report, the PDF is rendered from it. */
export interface AiReportTable {
  id: Generated<number>;
  organization_id: number;
  /** Who asked for it; null once that user is deleted. */
  user_id: number | null;
  org_number: string;
  company_name: string;
  language: "en" | "no";
  provider: string;
  status: "generating" | "ready" | "failed";
  markdown: string | null;
  /** What went wrong, for the operator's log and the page (never upstream text: a short kind). */
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

/* ---------- 0021: supplier intelligence written by a language model ---------- */

export interface IntelligenceTextTable {
  company_id: number;
  language: "en" | "no";
  /** app/models/assistant/supplier-intelligence.ts factsKey of the facts it was written from. */
  facts_key: string;
  model: string;
  /** JSON: the shared/spec/02-supplier-credit-connections.md §3 response. */
  data: string;
  written_at: string;
}

/* ---------- 0016: tasks and surveys (decision 031) ---------- */

export interface SurveyTemplateVersionTable {
  id: Generated<number>;
  template_id: number;
  version: number;
  /** JSON: app/models/tasks/survey-definition.ts SurveyDefinition. */
  definition: string;
  created_by_user_id: number | null;
  created_at: string;
}

export interface SurveyResponseFileTable {
  response_id: number;
  question_id: string;
  file_upload_id: number;
  expires_on: string | null;
  created_at: string;
}

export interface TaskCampaignTable {
  id: Generated<number>;
  organization_id: number;
  kind: "task" | "survey";
  task_template_id: number | null;
  survey_template_version_id: number | null;
  title: string;
  message: string | null;
  due_date: string | null;
  recurrence: "yearly" | null;
  previous_campaign_id: number | null;
  next_run_on: string | null;
  created_by_user_id: number | null;
  origin: string | null;
  summary: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface SupplierTaskTable {
  id: Generated<number>;
  organization_id: number;
  supplier_organization_id: number;
  campaign_id: number | null;
  kind: "task" | "survey";
  compliance_task_id: number | null;
  survey_response_id: number | null;
  title: string;
  recipient_email: string | null;
  message: string | null;
  due_date: string | null;
  status: Generated<"sent" | "opened" | "draft" | "submitted" | "accepted" | "returned" | "cancelled">;
  return_comment: string | null;
  answered_by_user_id: number | null;
  answered_by_name: string | null;
  sent_at: string;
  opened_at: string | null;
  submitted_at: string | null;
  decided_at: string | null;
  cancelled_at: string | null;
  updated_at: string;
}

export interface SupplierTaskLinkTable {
  id: Generated<number>;
  supplier_task_id: number;
  token_hash: string;
  email: string | null;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface SupplierTaskEventTable {
  id: Generated<number>;
  supplier_task_id: number;
  kind: "sent" | "opened" | "draft_saved" | "submitted" | "accepted" | "returned" | "reminded" | "cancelled" | "link_revoked";
  user_id: number | null;
  actor: string | null;
  detail: string | null;
  created_at: string;
}

export interface SupplierTaskReminderTable {
  supplier_task_id: number;
  step: string;
  sent_at: string;
}

export interface TaskReminderSettingsTable {
  organization_id: number;
  days_before: Generated<string>;
  days_after: Generated<string>;
  enabled: Generated<number>;
  updated_at: string;
}

/* ---------- 0023: daily risk snapshots ---------- */

/** Per organisation, Oslo day, tag (0 = all), band and flags: how many active connections (decision 038). */
export interface RiskSnapshotTable {
  organization_id: number;
  /** YYYY-MM-DD, Europe/Oslo. */
  day: string;
  /** 0: every connection; else the organisation tag's id. */
  tag_id: number;
  /** The stored overall risk's band; 'unknown' when not computed or nothing is known. */
  band: "green" | "yellow" | "red" | "unknown";
  is_priority: number;
  is_due_diligence: number;
  count: number;
}

/* ---------- 0026: accounts and administration ---------- */

/** The security log (decision 039): sign-ins, failed ones, password and level changes, administrators' actions. */
export interface SecurityEventTable {
  id: Generated<number>;
  at: string;
  kind: string;
  user_id: number | null;
  email: string | null;
  actor_user_id: number | null;
  organization_id: number | null;
  ip: string | null;
  user_agent: string | null;
  /** JSON. */
  detail: string | null;
}

/** The outside services' last success, last error and last test (decision 043). */
export interface IntegrationStatusTable {
  code: string;
  last_success_at: string | null;
  last_error_at: string | null;
  /** Short, without secrets. */
  last_error: string | null;
  last_test_at: string | null;
  last_test_ok: number | null;
  last_test_ms: number | null;
  last_test_message: string | null;
}

/** Runtime settings of the outside services, each value AES-256-GCM encrypted (decision 043). */
export interface IntegrationSettingTable {
  code: string;
  name: string;
  ciphertext: string;
  set_at: string;
  set_by: number | null;
}

/** Every mail sent or failed (decision 044); purged after MAIL_LOG_DAYS. */
export interface MailLogTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  kind: string | null;
  body: string;
  /** JSON: extra header fields (List-Unsubscribe). */
  headers: string | null;
  status: "sent" | "failed";
  error: string | null;
  attempts: Generated<number>;
  created_at: string;
  last_attempt_at: string;
  sent_at: string | null;
}

/** An administrator's announcement to everyone (organization_id null) or one organisation (decision 045). */
export interface AdminAnnouncementTable {
  id: Generated<number>;
  organization_id: number | null;
  title: string;
  body: string;
  created_by: number | null;
  created_at: string;
  mailed_at: string | null;
  withdrawn_at: string | null;
  mail_queued_at: string | null;
  /** The last user id the mailing job handled (users are mailed in id order). */
  mail_cursor: number | null;
  mailed_count: Generated<number>;
  mail_failed_count: Generated<number>;
}

export interface DB {
  admin_announcements: AdminAnnouncementTable;
  integration_status: IntegrationStatusTable;
  integration_settings: IntegrationSettingTable;
  security_events: SecurityEventTable;
  mail_log: MailLogTable;
  organizations: OrganizationTable;
  users: UserTable;
  sessions: SessionTable;
  invitations: InvitationTable;
  password_resets: PasswordResetTable;
  login_failures: LoginFailureTable;
  signup_requests: SignupRequestTable;
  account_unlocks: AccountUnlockTable;
  companies: CompanyTable;
  financial_statements: FinancialStatementTable;
  persons: PersonTable;
  roles: RoleTable;
  shareholdings: ShareholdingTable;
  announcements: AnnouncementTable;
  countries: CountryTable;
  supplier_intelligence: SupplierIntelligenceTable;
  companies_fts: CompanyFtsTable;
  persons_fts: PersonFtsTable;
  organization_connections: OrganizationConnectionTable;
  risk_notifications: RiskNotificationTable;
  file_uploads: FileUploadTable;
  compliance_task_templates: ComplianceTaskTemplateTable;
  compliance_tasks: ComplianceTaskTable;
  compliance_task_responses: ComplianceTaskResponseTable;
  compliance_task_response_files: ComplianceTaskResponseFileTable;
  survey_templates: SurveyTemplateTable;
  survey_responses: SurveyResponseTable;
  credit_reports: CreditReportTable;
  organization_tags: OrganizationTagTable;
  organization_connection_tags: OrganizationConnectionTagTable;
  organization_connection_comments: OrganizationConnectionCommentTable;
  organization_connection_files: OrganizationConnectionFileTable;
  casefiles: CasefileTable;
  casefile_comments: CasefileCommentTable;
  casefile_events: CasefileEventTable;
  connection_events: ConnectionEventTable;
  jobs: JobTable;
  job_schedules: JobScheduleTable;
  supplier_imports: SupplierImportTable;
  supplier_import_rows: SupplierImportRowTable;
  lei_records: LeiRecordTable;
  lei_other_names: LeiOtherNameTable;
  lei_relationships: LeiRelationshipTable;
  lei_reporting_exceptions: LeiReportingExceptionTable;
  lei_elf_codes: LeiElfCodeTable;
  lei_fts: LeiFtsTable;
  lei_cache: LeiCacheTable;
  notification_reads: NotificationReadTable;
  notification_dismissals: NotificationDismissalTable;
  news_feeds: NewsFeedTable;
  monitor_state: MonitorStateTable;
  notification_settings: NotificationSettingsTable;
  notification_mails: NotificationMailTable;
  conversations: ConversationTable;
  conversation_messages: ConversationMessageTable;
  document_texts: DocumentTextTable;
  ai_reports: AiReportTable;
  intelligence_texts: IntelligenceTextTable;
  survey_template_versions: SurveyTemplateVersionTable;
  survey_response_files: SurveyResponseFileTable;
  task_campaigns: TaskCampaignTable;
  supplier_tasks: SupplierTaskTable;
  supplier_task_links: SupplierTaskLinkTable;
  supplier_task_events: SupplierTaskEventTable;
  supplier_task_reminders: SupplierTaskReminderTable;
  task_reminder_settings: TaskReminderSettingsTable;
  risk_snapshots: RiskSnapshotTable;
}
