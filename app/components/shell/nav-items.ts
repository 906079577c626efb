import type { IconName } from "~/components/ui/icons";

/** The side navigation (shared/spec/01-shell-chat-lei.md §2.3): which groups and items a user sees. */
export interface NavItem {
  /** key under nav.screens */
  key: string;
  to: string;
}
export interface NavGroup {
  /** key under nav.groups */
  key: string;
  icon: IconName;
  items: NavItem[];
}

export const AI_SEGMENT = "ai";

const fullGroups: NavGroup[] = [
  {
    key: "suppliers",
    icon: "building",
    items: [
      { key: "overview", to: "/overview" },
      { key: "suppliers", to: "/suppliers" },
      { key: "credit_reports", to: "/credit_reports" },
    ],
  },
  {
    key: "supplierTasks",
    icon: "clipboard",
    items: [
      { key: "supplier_tasks", to: "/supplier_tasks" },
      { key: "survey_explorer", to: "/survey-explorer" },
      { key: "tasks_overview", to: "/tasks/overview" },
    ],
  },
  {
    key: "ai",
    icon: "sparkles",
    items: [
      { key: "ai_chat_v2", to: `/${AI_SEGMENT}/chat-v2` },
      { key: "ai_reports", to: `/${AI_SEGMENT}/reports` },
      { key: "ai_documents", to: `/${AI_SEGMENT}/documents` },
    ],
  },
  {
    key: "workflow",
    icon: "workflow",
    items: [
      { key: "projects", to: "/projects" },
      { key: "casefiles", to: "/casefiles" },
    ],
  },
  {
    key: "compliance",
    icon: "shield",
    items: [
      { key: "data_explorer", to: "/data-explorer" },
      { key: "reporting_portal", to: "/reporting-portal" },
    ],
  },
];

const myCompliance: NavGroup = {
  key: "myCompliance",
  icon: "shield",
  items: [{ key: "tasks_overview", to: "/tasks/overview" }],
};

const admin: NavGroup = {
  key: "admin",
  icon: "cog",
  items: [
    { key: "admin_organizations", to: "/admin/organizations" },
    { key: "admin_users", to: "/admin/users" },
    { key: "admin_surveys", to: "/admin/surveys/surveys" },
    { key: "admin_task_templates", to: "/admin/tasks/templates" },
    { key: "admin_suppliers_overview", to: "/admin/suppliers-overview" },
  ],
};

export function navGroupsFor(user: { accessLevel: number; isAdmin: boolean }, threshold = 2): NavGroup[] {
  const groups = user.accessLevel >= threshold ? [...fullGroups] : [myCompliance];
  if (user.isAdmin) groups.push(admin);
  return groups;
}

/** The transparency portal is shown to outsiders: no top bar, no side navigation. */
export function hidesShell(pathname: string): boolean {
  return pathname.split("/")[1] === "transparency-portal";
}
