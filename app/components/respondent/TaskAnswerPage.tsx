import type { ItemHeader, TaskAnswerView } from "~/models/tasks/respondent.server";
import { useTranslation } from "~/translations";
import { fileSize, ItemHeading, RESPONDENT_NAMESPACES, RespondentFrame } from "./RespondentFrame";

export interface TaskPageData {
  page: "task";
  mode: "user" | "link";
  base: string;
  header: ItemHeader;
  answer: TaskAnswerView;
  limit: string;
  linkEmail: string | null;
  signedInAs: string | null;
  organization: string | null;
  values: Record<string, string> | null;
  errors: Record<string, string[] | null> | null;
  formError: string | null;
}

/** The address of a file of this item (the template's or the answer's), keeping the link's token. */
export function fileHref(base: string, id: number): string {
  const [path, query] = base.split("?");
  return `${path}/files/${id}${query ? `?${query}` : ""}`;
}

/** A task: what the customer asks (inert markdown, the template file), then the answer: a comment and files. */
export function TaskAnswerPage({ data }: { data: TaskPageData }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const { header, answer, base } = data;
  const errors = data.errors ?? {};
  return (
    <RespondentFrame organization={data.organization}>
      <ItemHeading header={header} formError={data.formError} />
      {answer.descriptionHtml || answer.templateFile ? (
        <section aria-labelledby="task-what" className="mb-6 rounded-box border border-base-300 bg-base-100 p-4">
          <h2 id="task-what" className="text-lg font-semibold">
            {t("respond:task.what")}
          </h2>
          {answer.descriptionHtml ? <div className="markdown mt-2 text-sm" dangerouslySetInnerHTML={{ __html: answer.descriptionHtml }} /> : null}
          {answer.templateFile ? (
            <p className="mt-3 text-sm">
              <a className="link link-primary" href={fileHref(base, answer.templateFile.id)} rel="noreferrer">
                {t("respond:task.templateFile", { name: answer.templateFile.fileName })}
              </a>{" "}
              <span className="text-base-content/70">({fileSize(answer.templateFile.fileSize)})</span>
            </p>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="task-answer" className="rounded-box border border-base-300 bg-base-100 p-4">
        <h2 id="task-answer" className="text-lg font-semibold">
          {t("respond:task.answer")}
        </h2>
        <h3 className="mt-3 text-sm font-medium">{t("respond:task.files")}</h3>
        {answer.files.length === 0 ? (
          <p className="mt-1 text-sm text-base-content/70">{t("respond:task.noFiles")}</p>
        ) : (
          <ul className="mt-1 space-y-2 text-sm">
            {answer.files.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center gap-2">
                <a className="link break-all" href={fileHref(base, f.id)} rel="noreferrer">
                  {f.fileName}
                </a>
                <span className="text-base-content/70">({fileSize(f.fileSize)})</span>
                {header.editable ? (
                  <form method="post" action={base}>
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="fileId" value={f.id} />
                    <button type="submit" className="btn btn-ghost btn-xs" aria-label={t("respond:files.removeNamed", { name: f.fileName })}>
                      {t("respond:files.remove")}
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        )}

        {header.editable ? (
          <form method="post" action={base} encType="multipart/form-data" className="mt-4 space-y-4">
            <div>
              <label htmlFor="task-file" className="block text-sm font-medium">
                {t("respond:files.add")}
              </label>
              <input id="task-file" type="file" name="file" aria-describedby="task-file-hint" className="file-input file-input-sm mt-1 w-full" />
              <p id="task-file-hint" className="mt-1 text-xs text-base-content/70">
                {t("respond:files.hint", { limit: data.limit })}
              </p>
            </div>
            <div>
              <label htmlFor="task-comment" className="block text-sm font-medium">
                {t("respond:task.comment")}
              </label>
              <textarea
                id="task-comment"
                name="comment"
                rows={5}
                maxLength={4000}
                defaultValue={data.values?.comment ?? answer.comment}
                aria-invalid={errors.comment ? true : undefined}
                aria-describedby={errors.comment ? "task-comment-error" : undefined}
                className="textarea mt-1 w-full"
              />
              <FieldProblem id="task-comment-error" errors={errors.comment} />
            </div>
            {data.mode === "link" ? <NameFields values={data.values} errors={errors} linkEmail={data.linkEmail} /> : null}
            <div className="flex flex-wrap gap-2">
              <button type="submit" name="intent" value="save" className="btn">
                {t("respond:actions.saveDraft")}
              </button>
              <button type="submit" name="intent" value="submit" className="btn btn-primary">
                {t("respond:actions.submit")}
              </button>
            </div>
          </form>
        ) : (
          <div className="mt-4">
            <h3 className="text-sm font-medium">{t("respond:task.comment")}</h3>
            <p className="mt-1 text-sm whitespace-pre-line break-words">{answer.comment || t("respond:task.noComment")}</p>
          </div>
        )}
      </section>
    </RespondentFrame>
  );
}

export function FieldProblem({ id, errors }: { id: string; errors: string[] | null | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-sm text-error">
      {errors.join(" ")}
    </p>
  );
}

/** On a link: who answers (the customer sees the name), asked before submitting. */
export function NameFields({
  values,
  errors,
  linkEmail,
}: {
  values: Record<string, string> | null;
  errors: Record<string, string[] | null>;
  linkEmail: string | null;
}) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  return (
    <fieldset className="rounded-box border border-base-300 p-3">
      <legend className="px-1 text-sm font-medium">{t("respond:who.legend")}</legend>
      <p className="text-xs text-base-content/70">{t("respond:who.hint")}</p>
      <label htmlFor="who-name" className="mt-2 block text-sm font-medium">
        {t("respond:who.name")}
      </label>
      <input
        id="who-name"
        name="name"
        autoComplete="name"
        maxLength={200}
        defaultValue={values?.name ?? ""}
        aria-invalid={errors.name ? true : undefined}
        aria-describedby={errors.name ? "who-name-error" : undefined}
        className="input mt-1 w-full"
      />
      <FieldProblem id="who-name-error" errors={errors.name} />
      <label htmlFor="who-email" className="mt-2 block text-sm font-medium">
        {t("respond:who.email")}
      </label>
      <input
        id="who-email"
        name="email"
        type="email"
        autoComplete="email"
        maxLength={254}
        defaultValue={values?.email ?? linkEmail ?? ""}
        aria-invalid={errors.email ? true : undefined}
        aria-describedby={errors.email ? "who-email-error" : undefined}
        className="input mt-1 w-full"
      />
      <FieldProblem id="who-email-error" errors={errors.email} />
    </fieldset>
  );
}
