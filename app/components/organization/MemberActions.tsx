import { Link } from "@remix-run/react";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { useTranslation } from "~/translations";

const LEVELS = ["1", "2", "3"] as const;

/**
 * The texts of a page's member actions, as i18n keys with their namespace (each screen keeps its own words): `levels`
 * is the prefix of the level names (`…levels.1`); the others take `{{email}}` where they name the member.
 */
export interface MemberActionTexts {
  levels: string;
  levelLabel: string;
  setLevel: string;
  setLevelNamed: string;
  deactivate: string;
  deactivateNamed: string;
  reactivate: string;
  reactivateNamed: string;
}

export interface MemberActionProps {
  member: { id: number; email: string; accessLevel: number; deactivatedAt: string | null };
  /** Where a plain post (no JavaScript) comes back to. */
  redirectTo: string;
  /** The page's confirmation step of deactivating this member (`?deactivate={id}`). */
  deactivateHref: string;
  /** The controls' size: the administration's wide table is denser. */
  size: "xs" | "sm";
  texts: MemberActionTexts;
}

/**
 * A member's access level as a form (intent `level`, the member's `id`), used by /my-organization/users and
 * /admin/users: a labelled select of the three levels and a button named after the member.
 */
export function MemberLevelForm({ member, redirectTo, size, texts }: MemberActionProps) {
  const { t } = useTranslation();
  const id = `level-${member.id}`;
  return (
    <ActionForm
      intent="level"
      fields={{ id: member.id }}
      redirectTo={redirectTo}
      className={`flex flex-wrap items-center ${size === "xs" ? "gap-1" : "gap-2"}`}
    >
      {(form) => (
        <>
          <label className="sr-only" htmlFor={id}>
            {t(texts.levelLabel, { email: member.email })}
          </label>
          <select
            id={id}
            name="accessLevel"
            defaultValue={form.kept("accessLevel") ?? String(member.accessLevel)}
            className={size === "xs" ? "select select-xs w-44" : "select select-sm w-auto"}
            {...form.invalid("accessLevel")}
          >
            {LEVELS.map((level) => (
              <option key={level} value={level}>
                {t(`${texts.levels}.${level}`)}
              </option>
            ))}
          </select>
          <SubmitButton size={size} busy={form.busy} label={t(texts.setLevel)} named={t(texts.setLevelNamed, { email: member.email })} />
          <FieldError form={form} name="accessLevel" />
        </>
      )}
    </ActionForm>
  );
}

/**
 * Deactivate or reactivate a member: an active member's "Deactivate" is a link to the page's confirmation step (it
 * ends their sessions at once); a deactivated member's "Reactivate" is a form (intent `reactivate`), undone as easily.
 */
export function MemberStatusAction({ member, redirectTo, deactivateHref, size, texts }: MemberActionProps) {
  const { t } = useTranslation();
  if (member.deactivatedAt == null)
    return (
      <Link
        to={deactivateHref}
        className={`btn ${size === "xs" ? "btn-xs" : "btn-sm"} btn-ghost text-error`}
        aria-label={t(texts.deactivateNamed, { email: member.email })}
        preventScrollReset
      >
        {t(texts.deactivate)}
      </Link>
    );
  return (
    <ActionForm intent="reactivate" fields={{ id: member.id }} redirectTo={redirectTo}>
      {(form) => <SubmitButton size={size} busy={form.busy} label={t(texts.reactivate)} named={t(texts.reactivateNamed, { email: member.email })} />}
    </ActionForm>
  );
}

/** A member action's button: its short label, and its accessible name naming the member (rows of the same buttons). */
function SubmitButton({ size, busy, label, named }: { size: "xs" | "sm"; busy: boolean; label: string; named: string }) {
  return (
    <button type="submit" className={size === "xs" ? "btn btn-xs" : "btn btn-sm"} disabled={busy} aria-label={named}>
      {label}
    </button>
  );
}
