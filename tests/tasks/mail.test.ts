import { describe, expect, it } from "vitest";
import { outbox } from "@server/mail";
import { publicTaskPath, sendSupplierTaskMail } from "~/models/tasks/task-mail.server";

describe("the mails to a supplier's contact", () => {
  it("are written in Norwegian and in English with the link, the due date and the message", async () => {
    const before = outbox().length;
    const url = `https://app.example${publicTaskPath({ kind: "survey", complianceTaskId: null, surveyResponseId: 41 }, "tok_en-123")}`;
    await sendSupplierTaskMail({
      kind: "request",
      to: "kari@supplier.example",
      customerName: "Nordvik AS",
      itemKind: "survey",
      title: "Information security",
      message: "Please answer before the contract renewal.",
      dueDate: "2026-12-01",
      url,
      linkExpiresAt: "2027-03-01T00:00:00.000Z",
    });
    const mails = outbox();
    expect(mails.length).toBe(before + 1);
    const mail = mails.at(-1)!;
    expect(mail).toContain("To: kari@supplier.example");
    expect(mail).toContain("Subject: Nordvik AS ber dere svare på: Information security / Nordvik AS asks you to answer: Information security");
    expect(mail).toContain("Nordvik AS har sendt organisasjonen deres undersøkelsen «Information security».");
    expect(mail).toContain('Nordvik AS has sent your organization the survey "Information security".');
    expect(mail).toContain("Please answer before the contract renewal.");
    expect(mail).toContain("Svar innen 1. des. 2026.");
    expect(mail).toContain("Please answer by 1 Dec 2026.");
    expect(mail.split("https://app.example/tasks/surveys/41/public?token=tok_en-123").length).toBe(3);
  });

  it("a return carries the customer's comment, and a task's link is the task's page", async () => {
    await sendSupplierTaskMail({
      kind: "returned",
      to: "ola@supplier.example",
      customerName: "Nordvik AS",
      itemKind: "task",
      title: "Sign the code of conduct",
      message: null,
      dueDate: null,
      returnComment: "The signature is missing.",
      url: `https://app.example${publicTaskPath({ kind: "task", complianceTaskId: 7, surveyResponseId: null }, "abc")}`,
      linkExpiresAt: "2027-03-01T00:00:00.000Z",
    });
    const mail = outbox().at(-1)!;
    expect(mail).toContain("Kommentaren deres: The signature is missing.");
    expect(mail).toContain("Their comment: The signature is missing.");
    expect(mail).toContain("https://app.example/tasks/7/public?token=abc");
    expect(mail).not.toContain("Svar innen");
  });
});
