import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { Pagination } from "~/components/ui/Pagination";
import { refuseForm } from "~/http/forms.server";
import { formPost, h, renderPage, type StubRoute } from "./remix-page";

/*
 * The confirmation step of a destructive action and the list pager, as a browser without JavaScript gets them: the
 * step is URL state with a POST button and a cancel link, a refused confirmation shows its message inside the step;
 * the pager is links only. Before, only the e2e suite (JavaScript off) exercised them.
 */

function FilesScreen() {
  return h(ConfirmStep, {
    title: "Please confirm",
    text: "Are you sure you want to delete this file? This cannot be undone.",
    detail: "contract.pdf",
    intent: "delete-file",
    fields: { fileId: 12 },
    confirmLabel: "Delete",
    busyLabel: "Deleting...",
    cancelLabel: "Cancel",
    cancelHref: "/files",
    redirectTo: "/files",
  });
}

async function deleteAction({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (formData.get("fileId") === "12") return refuseForm(formData, { status: 409, fieldErrors: { fileId: ["The file is attached to a task."] } });
  return redirect(String(formData.get("redirectTo")));
}

const files: StubRoute = { path: "files", Component: FilesScreen, action: deleteAction };

describe("ConfirmStep without JavaScript", () => {
  it("is an alert dialog with the spec's text, a POST button with the change's fields, and a cancel link", async () => {
    const { status, html } = await renderPage(files, new Request("http://localhost/files?delete=12"));
    expect(status).toBe(200);
    expect(html).toMatch(/<div role="alertdialog" aria-modal="true" aria-labelledby="([^"]+)-title" aria-describedby="\1-text"/);
    expect(html).toContain("Are you sure you want to delete this file? This cannot be undone.");
    expect(html).toContain("contract.pdf");
    expect(html).toMatch(/<form method="post" action="\/files\?delete=12"/);
    expect(html).toContain('<input type="hidden" name="intent" value="delete-file"/>');
    expect(html).toContain('<input type="hidden" name="fileId" value="12"/>');
    expect(html).toContain('<input type="hidden" name="redirectTo" value="/files"/>');
    expect(html).toMatch(/<a[^>]*href="\/files"[^>]*>Cancel<\/a>/);
    expect(html).toMatch(/<button type="submit" class="btn btn-error">Delete<\/button>/);
    expect(html).not.toContain('role="alert"');
  });

  it("shows a refused confirmation's message inside the step, which stays open", async () => {
    const { status, html } = await renderPage(files, formPost("/files?delete=12", { intent: "delete-file", fileId: "12", redirectTo: "/files" }));
    expect(status).toBe(409);
    expect(html).toContain('role="alertdialog"');
    expect(html).toMatch(/<p role="alert"[^>]*>The file is attached to a task\.<\/p>/);
  });

  it("ignores the reply of another record's confirmation", async () => {
    const { html } = await renderPage(files, formPost("/files?delete=12", { intent: "delete-file", fileId: "13", redirectTo: "/files" }));
    expect(html).not.toContain('role="alert"');
  });
});

function pagerAt(page: number, pageCount: number, shown: number, total: number): StubRoute {
  return {
    path: "suppliers",
    Component: () => h(Pagination, { page, pageCount, pageSize: 25, shown, total, href: (p: number) => (p === 1 ? "/suppliers" : `/suppliers?page=${p}`) }),
  };
}

const get = (url: string) => new Request(`http://localhost${url}`);

describe("Pagination", () => {
  it("says where the user is and links First, Previous, Next and Last", async () => {
    const { html } = await renderPage(pagerAt(2, 5, 25, 120), get("/suppliers?page=2"));
    expect(html).toMatch(/<nav aria-label="Pages"/);
    expect(html).toContain("Page 2 of 5");
    expect(html).toContain("26–50 of 120");
    expect(html).toMatch(/<a[^>]*href="\/suppliers"[^>]*>First<\/a>/);
    expect(html).toMatch(/<a[^>]*rel="prev"[^>]*href="\/suppliers"[^>]*>Previous<\/a>|<a[^>]*href="\/suppliers"[^>]*rel="prev"[^>]*>Previous<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/suppliers\?page=3"[^>]*>Next<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/suppliers\?page=5"[^>]*>Last<\/a>/);
  });

  it("disables the links that lead nowhere on the first and the last page", async () => {
    const first = (await renderPage(pagerAt(1, 5, 25, 120), get("/suppliers"))).html;
    expect(first).toMatch(/<span aria-disabled="true"[^>]*>First<\/span>/);
    expect(first).toMatch(/<span aria-disabled="true"[^>]*>Previous<\/span>/);
    expect(first).toMatch(/<a[^>]*href="\/suppliers\?page=2"[^>]*>Next<\/a>/);
    const last = (await renderPage(pagerAt(5, 5, 20, 120), get("/suppliers?page=5"))).html;
    expect(last).toContain("101–120 of 120");
    expect(last).toMatch(/<span aria-disabled="true"[^>]*>Next<\/span>/);
    expect(last).toMatch(/<span aria-disabled="true"[^>]*>Last<\/span>/);
  });

  it("shows no links for a single page, and 0–0 for an empty list", async () => {
    const { html } = await renderPage(pagerAt(1, 1, 0, 0), get("/suppliers"));
    expect(html).toContain("Page 1 of 1");
    expect(html).toContain("0–0 of 0");
    expect(html).not.toContain("Next");
  });
});
