import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { refuseForm } from "~/http/forms.server";
import { formPost, h, renderPage, type StubRoute } from "./remix-page";

/*
 * ActionForm without JavaScript: a refused plain post comes back as the re-rendered page, and the form that was sent —
 * only that one — shows its messages and keeps what the user typed. Before, only the e2e suite (JavaScript off) saw it.
 */

function Screen() {
  return h(
    "main",
    null,
    h(ActionForm, {
      intent: "rename-tag",
      fields: { tagId: 7 },
      children: (form) => [
        h("label", { key: "l", htmlFor: "title" }, "Title"),
        h("input", { key: "i", id: "title", name: "title", defaultValue: form.kept("title") ?? "Critical", ...form.invalid("title") }),
        h(FieldError, { key: "e", form, name: "title" }),
        h("button", { key: "b", type: "submit" }, "Save"),
      ],
    }),
    h(ActionForm, {
      intent: "add-comment",
      children: (form) => [
        h("textarea", { key: "t", name: "text", "aria-label": "Comment", defaultValue: form.kept("text") ?? "" }),
        h(FieldError, { key: "e", form, name: "text" }),
      ],
    }),
  );
}

async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const title = String(formData.get("title") ?? "");
  if (formData.get("intent") === "rename-tag" && title.length > 10) {
    return refuseForm(formData, { fieldErrors: { title: ["At most 10 characters."] } });
  }
  if (formData.get("intent") === "rename-tag" && title === "Taken") {
    return refuseForm(formData, { status: 409, formErrors: ["A tag with this title exists."] });
  }
  return redirect(String(formData.get("redirectTo") ?? "/tags"));
}

const route: StubRoute = { path: "tags", Component: Screen, action };

describe("ActionForm after a plain post (no JavaScript)", () => {
  it("renders the intent, its fields and a redirectTo back to the page", async () => {
    const { status, html } = await renderPage(route, new Request("http://localhost/tags?page=2"));
    expect(status).toBe(200);
    expect(html).toMatch(/<form method="post" action="\/tags\?page=2"/);
    expect(html).toContain('<input type="hidden" name="intent" value="rename-tag"/>');
    expect(html).toContain('<input type="hidden" name="tagId" value="7"/>');
    expect(html).toContain('<input type="hidden" name="redirectTo" value="/tags?page=2"/>');
    expect(html).toContain('value="Critical"');
    expect(html).not.toContain('role="alert"');
  });

  it("keeps the typed value and shows the field's message beside it after a refused post", async () => {
    const typed = "A far too long title";
    const { status, html } = await renderPage(route, formPost("/tags", { intent: "rename-tag", tagId: "7", title: typed, redirectTo: "/tags" }));
    expect(status).toBe(400);
    expect(html).toContain(`value="${typed}"`);
    expect(html).not.toContain('value="Critical"');
    expect(html).toMatch(/<input id="title" name="title" aria-invalid="true" aria-describedby="([^"]+)-title-error" value="A far too long title"\/>/);
    expect(html).toMatch(/<p role="alert" id="[^"]+-title-error"[^>]*>At most 10 characters\.<\/p>/);
  });

  it("shows the form's own message at its end, with the answer's status", async () => {
    const { status, html } = await renderPage(route, formPost("/tags", { intent: "rename-tag", tagId: "7", title: "Taken", redirectTo: "/tags" }));
    expect(status).toBe(409);
    expect(html).toContain('value="Taken"');
    expect(html).toMatch(/<p role="alert" id="[^"]+-form-error"[^>]*>A tag with this title exists\.<\/p>/);
  });

  it("leaves the other forms of the page alone", async () => {
    const { html } = await renderPage(route, formPost("/tags", { intent: "rename-tag", tagId: "7", title: "A far too long title", redirectTo: "/tags" }));
    const comment = html.slice(html.indexOf('value="add-comment"'));
    expect(comment).not.toContain('role="alert"');
    expect(comment).toMatch(/<textarea name="text" aria-label="Comment"><\/textarea>/);
  });

  it("a form of the same intent about another record does not take the reply", async () => {
    const { html } = await renderPage(route, formPost("/tags", { intent: "rename-tag", tagId: "8", title: "A far too long title", redirectTo: "/tags" }));
    expect(html).toContain('value="Critical"');
    expect(html).not.toContain("At most 10 characters.");
  });

  it("an accepted post redirects where the form said", async () => {
    const { status } = await renderPage(route, formPost("/tags", { intent: "rename-tag", tagId: "7", title: "Fine", redirectTo: "/tags?page=2" }));
    expect(status).toBe(302);
  });
});
