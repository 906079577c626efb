import { describe, expect, it } from "vitest";
import {
  canDo,
  daysBetween,
  DEFAULT_REMINDER_SETTINGS,
  displayStatus,
  isEditableByRespondent,
  nextStatus,
  osloDate,
  reminderStepDue,
  SUPPLIER_TASK_STATUSES,
  type TaskAction,
  type TaskStatus,
} from "~/models/tasks/task-states";

describe("transitions", () => {
  const table: Array<[TaskAction, "customer" | "respondent", TaskStatus[]]> = [
    ["open", "respondent", ["sent"]],
    ["save", "respondent", ["sent", "opened", "draft", "returned"]],
    ["submit", "respondent", ["sent", "opened", "draft", "returned"]],
    ["accept", "customer", ["submitted"]],
    ["return", "customer", ["submitted"]],
    ["remind", "customer", ["sent", "opened", "draft", "returned"]],
    ["cancel", "customer", ["sent", "opened", "draft", "submitted", "returned"]],
  ];
  it.each(table)("%s by the %s is allowed only from %j", (action, actor, from) => {
    for (const status of SUPPLIER_TASK_STATUSES) {
      expect(canDo(action, actor, status)).toBe(from.includes(status));
      expect(canDo(action, actor === "customer" ? "respondent" : "customer", status)).toBe(false);
    }
  });

  it("leads to the next status", () => {
    expect(nextStatus("open", "sent")).toBe("opened");
    expect(nextStatus("save", "returned")).toBe("draft");
    expect(nextStatus("submit", "draft")).toBe("submitted");
    expect(nextStatus("accept", "submitted")).toBe("accepted");
    expect(nextStatus("return", "submitted")).toBe("returned");
    expect(nextStatus("cancel", "draft")).toBe("cancelled");
    expect(nextStatus("remind", "opened")).toBe("opened");
  });

  it("a submitted answer reopens only when returned", () => {
    expect(SUPPLIER_TASK_STATUSES.filter(isEditableByRespondent)).toEqual(["sent", "opened", "draft", "returned"]);
  });
});

describe("overdue", () => {
  it.each([
    ["sent", "2026-11-23", "overdue"],
    ["draft", "2026-11-23", "overdue"],
    ["returned", "2026-11-23", "overdue"],
    ["sent", "2026-11-24", "sent"],
    ["submitted", "2026-11-01", "submitted"],
    ["accepted", "2026-11-01", "accepted"],
    ["cancelled", "2026-11-01", "cancelled"],
  ] as const)("%s due %s is shown as %s on 2026-11-24", (status, dueDate, shown) => {
    expect(displayStatus({ status, dueDate }, "2026-11-24")).toBe(shown);
  });

  it("no due date is never overdue", () => expect(displayStatus({ status: "sent", dueDate: null }, "2099-01-01")).toBe("sent"));

  it("days are Oslo calendar days", () => {
    expect(osloDate(new Date("2026-11-23T23:30:00Z"))).toBe("2026-11-24");
    expect(osloDate(new Date("2026-06-30T21:59:00Z"))).toBe("2026-06-30");
    expect(osloDate(new Date("2026-06-30T22:00:00Z"))).toBe("2026-07-01");
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2);
    expect(daysBetween("2026-12-31", "2026-12-24")).toBe(-7);
  });
});

describe("reminder steps", () => {
  const item = (status: TaskStatus = "sent", sentOn = "2026-11-01") => ({ status, dueDate: "2026-12-01", sentOn });
  const none = new Set<string>();

  it.each([
    ["2026-11-23", null],
    ["2026-11-24", "before:7"],
    ["2026-11-27", "before:7"],
    ["2026-11-28", "before:3"],
    ["2026-11-30", "before:1"],
    ["2026-12-01", "before:1"],
    ["2026-12-02", "overdue:1"],
  ])("on %s with nothing sent: %s", (today, step) => {
    // With nothing sent, the latest step that has come is due (a missed day is caught up): before:7 again on the 27th.
    expect(reminderStepDue(item(), today, DEFAULT_REMINDER_SETTINGS, none)).toBe(step);
  });

  it("walks the default steps day by day, each once", () => {
    const sent = new Set<string>();
    const log: string[] = [];
    for (let d = 0; d < 45; d++) {
      const today = new Date(Date.UTC(2026, 10, 1 + d)).toISOString().slice(0, 10);
      const step = reminderStepDue(item(), today, DEFAULT_REMINDER_SETTINGS, sent);
      if (step) {
        sent.add(step);
        log.push(`${today} ${step}`);
      }
    }
    expect(log).toEqual(["2026-11-24 before:7", "2026-11-28 before:3", "2026-11-30 before:1", "2026-12-02 overdue:1"]);
  });

  it("a missed day sends the latest step once, not the older ones", () => {
    expect(reminderStepDue(item(), "2026-11-30", DEFAULT_REMINDER_SETTINGS, none)).toBe("before:1");
    expect(reminderStepDue(item(), "2026-11-30", DEFAULT_REMINDER_SETTINGS, new Set(["before:1"]))).toBeNull();
  });

  it("no step that fell before the item was sent", () => {
    expect(reminderStepDue(item("sent", "2026-11-28"), "2026-11-28", DEFAULT_REMINDER_SETTINGS, none)).toBeNull();
    expect(reminderStepDue(item("sent", "2026-11-28"), "2026-11-30", DEFAULT_REMINDER_SETTINGS, none)).toBe("before:1");
  });

  it.each(["submitted", "accepted", "cancelled"] as const)("nothing once %s", (status) => {
    expect(reminderStepDue(item(status), "2026-11-30", DEFAULT_REMINDER_SETTINGS, none)).toBeNull();
  });

  it("nothing when the organisation turned reminders off, or without a due date", () => {
    expect(reminderStepDue(item(), "2026-11-30", { ...DEFAULT_REMINDER_SETTINGS, enabled: false }, none)).toBeNull();
    expect(reminderStepDue({ status: "sent", dueDate: null, sentOn: "2026-11-01" }, "2026-11-30", DEFAULT_REMINDER_SETTINGS, none)).toBeNull();
  });
});
