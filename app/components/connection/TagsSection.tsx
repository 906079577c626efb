import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { FieldError } from "~/components/ui/ActionForm";
import { Icon } from "~/components/ui/icons";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import type { TagItem } from "~/models/suppliers/tags.server";
import { ConnectionForm } from "./ConnectionForm";
import { SectionBlock } from "./SectionBlock";
import { CONFIRM_PARAMS, useUrlWith } from "./urls";

/** The slide-over's Tags: the connection's tags with remove (x), Manage Tags, Add Existing Tag, Create New Tag. */
export function TagsSection({ connection, tags }: { connection: ConnectionData; tags: TagItem[] }) {
  const { t } = useTranslation("connections");
  const url = useUrlWith();
  const linked = new Set(connection.tags.map((x) => x.tag.id));
  const available = tags.filter((tag) => !linked.has(tag.id));
  return (
    <SectionBlock title={t("edit.tags")} id="edit-tags">
      {connection.tags.length ? (
        <ul className="mb-3 flex flex-wrap gap-2">
          {connection.tags.map(({ tag }) => (
            <li key={tag.id}>
              <ConnectionForm
                intent="remove-tag"
                fields={{ tagId: tag.id }}
                className="badge badge-outline h-auto gap-1 py-1"
                errorClassName="text-xs text-error"
              >
                {(form) => (
                  <>
                    <span>{tag.title}</span>
                    <button
                      type="submit"
                      className="btn btn-ghost btn-xs btn-circle"
                      aria-label={t("edit.removeTag", { title: tag.title })}
                      disabled={form.busy}
                    >
                      <Icon name="x" className="size-3" />
                    </button>
                  </>
                )}
              </ConnectionForm>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-3 text-sm text-base-content/70">{t("edit.noTags")}</p>
      )}
      <Link to={url({ dialog: "tags" }, CONFIRM_PARAMS)} className="btn btn-sm btn-outline mb-3" preventScrollReset>
        {t("edit.manageTags")}
      </Link>
      <ConnectionForm intent="add-tag" className="mb-3">
        {(form) => (
          <>
            <label htmlFor="add-tag-select" className="mb-1 block text-sm font-medium">
              {t("edit.addExistingTag")}
            </label>
            <div className="flex gap-2">
              <select
                id="add-tag-select"
                name="tagId"
                className="select select-sm flex-1"
                required
                defaultValue={form.kept("tagId") ?? ""}
                key={available.map((x) => x.id).join()}
                {...form.invalid("tagId")}
              >
                <option value="" disabled>
                  {t("edit.chooseTag")}
                </option>
                {available.map((tag) => (
                  <option key={tag.id} value={tag.id}>
                    {tag.title}
                  </option>
                ))}
              </select>
              <button type="submit" className="btn btn-sm" disabled={form.busy}>
                {t("edit.addSelectedTag")}
              </button>
            </div>
            <FieldError form={form} name="tagId" />
          </>
        )}
      </ConnectionForm>
      <ConnectionForm intent="create-tag" resetOnSuccess>
        {(form) => (
          <>
            <label htmlFor="create-tag-input" className="mb-1 block text-sm font-medium">
              {t("edit.createNewTag")}
            </label>
            <div className="flex gap-2">
              <input
                id="create-tag-input"
                name="title"
                className={`input input-sm flex-1 ${form.errors("title").length ? "input-error" : ""}`}
                required
                maxLength={100}
                pattern=".*\S.*"
                placeholder={t("edit.newTagPlaceholder")}
                defaultValue={form.kept("title")}
                {...form.invalid("title")}
              />
              <button type="submit" className="btn btn-sm" disabled={form.busy}>
                {t("edit.createAndAdd")}
              </button>
            </div>
            <FieldError form={form} name="title" />
          </>
        )}
      </ConnectionForm>
    </SectionBlock>
  );
}
