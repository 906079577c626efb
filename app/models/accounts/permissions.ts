/**
 * Who may do what: the one permission table, used by pages and the API alike
 * (through `requireUser`) and by components that hide what a user may not do.
 * Pure: safe for the browser.
 *
 * Roles (shared/spec/01-shell-chat-lei.md §1, §2.3, §6): a visitor has no session; a member belongs to
 * an organisation with an access level (1 viewer, 2 analyst, 3 the
 * organisation's administrator); a supplier respondent is a member of a
 * supplier organisation; is_admin marks the installation's operator.
 */

/** Minimum organisation access level for registry data, search and the full navigation (shared/spec/01-shell-chat-lei.md §9). */
export const ACCESS_LEVEL_THRESHOLD = 2;

export interface Rule {
  /** The user must belong to an organisation. */
  organization: boolean;
  /** Lowest organisation access level (0 = any signed-in user). */
  level: number;
  /** Only the installation's operator (is_admin). */
  admin?: boolean;
  /** Only members of customer organisations (supplier respondents are refused). */
  customer?: boolean;
}

export const PERMISSIONS = {
  /** Any signed-in user: their own account, language, the shell. */
  signedIn: { organization: false, level: 0 },
  /** A member's own uploads (respondents too: they upload task answers). */
  ownFiles: { organization: true, level: 1 },
  /** Registry data, search, the supplier screen, business-api. */
  registryRead: { organization: true, level: ACCESS_LEVEL_THRESHOLD },
  /** The organisation's suppliers, connections, tags, comments, case files, credit reports: read. */
  suppliersRead: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** … and change: follow, flags, contact email, tags, comments, attached files, case files. */
  suppliersWrite: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** Ordering a paid credit report. */
  creditOrder: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** The risk notifications about the organisation's followed suppliers: the bell, the panel, /notifications, marking one's own as read. */
  notificationsRead: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** Dismissing a notification for the whole organisation (with a reason) and bringing it back. */
  notificationsTriage: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** The news feeds the organisation's monitor reads (the organisation's administrator). */
  newsFeedsManage: { organization: true, level: 3, customer: true },
  /** The assistant (chat panel, /ai/chat, conversations): it answers about the organisation's suppliers, so customer members at level 2. */
  assistantUse: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** What the organisation has been asked to answer (tasks and surveys sent to it): any member, supplier respondents and customers alike. */
  respondentWork: { organization: true, level: 1 },
  /** The tasks and surveys the organisation sent: the lists, each item with its answer, the read views, the survey explorer. */
  supplierTasksRead: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** Sending tasks and surveys, accepting, returning, reminding, cancelling; the organisation's reminder settings. */
  supplierTasksManage: { organization: true, level: ACCESS_LEVEL_THRESHOLD, customer: true },
  /** The organisation's own task and survey templates (its administrator); the system-wide ones are the operator's (`admin`). */
  taskTemplatesManage: { organization: true, level: 3, customer: true },
  /** The user's own organisation: its members, overview (any member, supplier respondents too; decision 041). */
  organizationRead: { organization: true, level: 1 },
  /** Managing the organisation: members, invitations, organisation settings. */
  organizationManage: { organization: true, level: 3 },
  /** The installation's administration. */
  admin: { organization: false, level: 0, admin: true },
} as const satisfies Record<string, Rule>;

export type Permission = keyof typeof PERMISSIONS;

/** What `can` needs to know of a user. */
export interface Subject {
  accessLevel: number;
  isAdmin: boolean;
  organizationId: number | null;
  organizationKind?: "customer" | "supplier" | null;
}

export function can(user: Subject | null | undefined, permission: Permission): boolean {
  if (!user) return false;
  const rule: Rule = PERMISSIONS[permission];
  if (rule.admin && !user.isAdmin) return false;
  if (rule.organization && user.organizationId == null) return false;
  if (rule.customer && user.organizationKind === "supplier") return false;
  return user.accessLevel >= rule.level;
}

/** The paths a visitor without a session may open (shared/spec/01-shell-chat-lei.md §6). */
const PUBLIC_PATHS = new Set(["/", "/login", "/signup", "/invite-signup", "/forgot-password", "/reset-password", "/account/unsubscribe"]);

export function isPublicPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return PUBLIC_PATHS.has(path) || path.includes("/public");
}
