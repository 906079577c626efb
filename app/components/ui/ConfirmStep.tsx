import { Form, Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useId, useRef } from "react";
import { errorsOf, useActionResult } from "./ActionForm";
import { useModal } from "./useModal";

export interface ConfirmStepProps {
  /** The step's heading ("Please confirm"). */
  title: string;
  /** The question, in the spec's words ('Are you sure you want to remove this file?'). */
  text: string;
  /** What the change is about, shown under the title (a file's name, say). */
  detail?: React.ReactNode;
  /** The action's intent that the POST button runs. */
  intent: string;
  /** Hidden fields posted with it: the ids the change is about. */
  fields?: Record<string, string | number>;
  /** Label of the POST button ("Delete", "Remove"). */
  confirmLabel: string;
  /** Label of the POST button while the change is sent ("Deleting..."); `confirmLabel` by default. */
  busyLabel?: string;
  /** Label of the cancel link. */
  cancelLabel: string;
  /** The URL without the step: the cancel link and, with JavaScript, Escape go there. */
  cancelHref: string;
  /** Where the page goes after an accepted change (the action redirects there, with its notice). */
  redirectTo: string;
  /** Where the form posts; the current URL (with the step) by default, so a refused change comes back with the step and its message. */
  action?: string;
}

/**
 * The confirmation step of a destructive action (docs/architecture.md "Destructive
 * actions ask first"): URL state shown over the page as an alert dialog, the
 * same markup with and without JavaScript: the spec's text, a POST button and
 * a cancel link. The post carries `redirectTo`, so an accepted change leaves
 * the step; a refused one shows its message (role="alert") in the step. With
 * JavaScript focus starts on Cancel and Escape cancels.
 */
export function ConfirmStep({
  title,
  text,
  detail,
  intent,
  fields = {},
  confirmLabel,
  busyLabel,
  cancelLabel,
  cancelHref,
  redirectTo,
  action,
}: ConfirmStepProps) {
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLAnchorElement>(null);
  const id = useId();
  useModal(ref, () => navigate(cancelHref, { preventScrollReset: true, replace: true }), undefined, { initialFocus: cancelRef });
  const result = useActionResult(intent, fields);
  const errors = [...errorsOf(result), ...Object.keys(fields).flatMap((name) => errorsOf(result, name))];
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <div className="fixed inset-0 z-[70] flex items-center justify-center bg-black/40 p-4">
      <div
        ref={ref}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        tabIndex={-1}
        className="w-full max-w-md rounded-box bg-base-100 p-5 shadow-xl outline-none"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {detail ? <p className="mt-1 break-all text-sm text-base-content/70">{detail}</p> : null}
        <p id={`${id}-text`} className="mt-2">
          {text}
        </p>
        {errors.length ? (
          <p role="alert" className="mt-2 text-sm text-error">
            {errors.join(" ")}
          </p>
        ) : null}
        <Form method="post" action={action ?? `${location.pathname}${location.search}`} className="mt-4 flex justify-end gap-2" preventScrollReset>
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Link ref={cancelRef} to={cancelHref} className="btn btn-ghost" preventScrollReset replace>
            {cancelLabel}
          </Link>
          <button type="submit" className="btn btn-error" disabled={busy}>
            {busy && busyLabel ? busyLabel : confirmLabel}
          </button>
        </Form>
      </div>
    </div>
  );
}
